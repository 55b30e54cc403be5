// applyLongRunningSettings starts a long-running command (node, dev) again with glibc's mmap threshold
// fixed, V8's helper threads sized to the machine and WebAssembly's tier-up budget at a quarter of V8's
// (Linux): checked on the process it really runs, started as npm would.
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

interface Settings {
  pid: number;
  execArgv: string[];
  mmapThreshold: string | null;
}

function runFixture(nodeArgs: string[], env: NodeJS.ProcessEnv): Settings & { spawnedPid: number } {
  const { MALLOC_MMAP_THRESHOLD_: _, ...rest } = process.env;
  const result = spawnSync(process.execPath, [...nodeArgs, "--import", "tsx", join(import.meta.dirname, "_test", "processSettingsFixture.ts")], { env: { ...rest, ...env }, encoding: "utf8", timeout: 120_000 });
  if (result.status !== 0) throw new Error(`the fixture failed (${result.status}): ${result.stderr}`);
  const line = result.stdout.trim().split("\n").at(-1)!;
  return { ...(JSON.parse(line) as Settings), spawnedPid: result.pid! };
}

const execveAvailable = process.platform === "linux" && typeof (process as { execve?: unknown }).execve === "function";

describe.runIf(execveAvailable)("the long-running commands' process settings (Linux)", () => {
  it("starts the script again in place with the mmap threshold fixed, one V8 helper per spare core and a quarter tier-up budget", () => {
    const settings = runFixture([], {});
    expect(settings.mmapThreshold).toBe("131072");
    expect(settings.execArgv).toContain(`--v8-pool-size=${Math.max(1, Math.min(4, availableParallelism() - 2))}`);
    expect(settings.execArgv).toContain("--wasm-tiering-budget=3250000");
    // execve: the pid npm started is the one running the script (signals reach it).
    expect(settings.pid).toBe(settings.spawnedPid);
  }, 150_000);

  it("keeps a helper count, a tier-up budget and a threshold the user chose, and the other node flags", () => {
    const chosen = runFixture(["--v8-pool-size=3", "--wasm-tiering-budget=13000000", "--stack-size=2000"], {});
    expect(chosen.execArgv.filter((a) => a.startsWith("--v8-pool-size"))).toEqual(["--v8-pool-size=3"]);
    expect(chosen.execArgv.filter((a) => a.startsWith("--wasm-tiering-budget"))).toEqual(["--wasm-tiering-budget=13000000"]);
    expect(chosen.execArgv).toContain("--stack-size=2000");
    const own = runFixture([], { MALLOC_MMAP_THRESHOLD_: "65536" });
    expect(own.mmapThreshold).toBe("65536");
    // Nothing to set: not started again, so no V8 setting is added either.
    expect(own.execArgv.some((a) => a.startsWith("--v8-pool-size") || a.startsWith("--wasm-tiering-budget"))).toBe(false);
  }, 150_000);

  it("leaves out each setting the memory bench turns off, and starts nothing again when all are off", () => {
    const noThreshold = runFixture([], { SUBGRAPH_WORKBENCH_SETTINGS_OFF: "mmap-threshold" });
    expect(noThreshold.mmapThreshold).toBeNull();
    expect(noThreshold.execArgv).toContain("--wasm-tiering-budget=3250000");
    expect(noThreshold.pid).toBe(noThreshold.spawnedPid);
    const noFlags = runFixture([], { SUBGRAPH_WORKBENCH_SETTINGS_OFF: "v8-pool-size,wasm-tiering" });
    expect(noFlags.mmapThreshold).toBe("131072");
    expect(noFlags.execArgv.some((a) => a.startsWith("--v8-pool-size") || a.startsWith("--wasm-tiering-budget"))).toBe(false);
    const none = runFixture([], { SUBGRAPH_WORKBENCH_SETTINGS_OFF: "all" });
    expect(none.mmapThreshold).toBeNull();
    expect(none.execArgv).toEqual(["--import", "tsx"]);
  }, 150_000);
});
