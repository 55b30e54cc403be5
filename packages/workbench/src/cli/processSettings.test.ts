// applyLongRunningSettings starts a long-running command (node, dev) again with glibc's mmap threshold fixed, V8's helper threads
// sized to the machine, the main thread's young generation at 8 MiB semi-spaces, worker threads
// keeping the size they ask for, and WebAssembly's tier-up budget at a quarter of V8's (Linux): checked
// on the process it really runs, started as npm would.
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

interface Settings {
  pid: number;
  execArgv: string[];
  mmapThreshold: string | null;
  /** The young generation of a worker asking for 4 MiB, after allocating enough to grow it to its limit. */
  workerYoungMiB: number;
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
  it("starts the script again in place with the mmap threshold fixed, one V8 helper per spare core, 8 MiB semi-spaces and a quarter tier-up budget", () => {
    const settings = runFixture([], {});
    expect(settings.mmapThreshold).toBe("131072");
    expect(settings.execArgv).toContain(`--v8-pool-size=${Math.max(1, Math.min(4, availableParallelism() - 2))}`);
    expect(settings.execArgv).toContain("--max-semi-space-size=8");
    expect(settings.execArgv).toContain("--wasm-tiering-budget=3250000");
    // The flag is the main thread's alone: with it still set, V8 gives the worker 8 MiB semi-spaces.
    expect(settings.workerYoungMiB).toBeLessThanOrEqual(4);
    // execve: the pid npm started is the one running the script (signals reach it).
    expect(settings.pid).toBe(settings.spawnedPid);
  }, 150_000);

  it("keeps a helper count, a semi-space size, a tier-up budget and a threshold the user chose, and the other node flags", () => {
    const chosen = runFixture(["--v8-pool-size=3", "--max-semi-space-size=4", "--wasm-tiering-budget=13000000", "--stack-size=2000"], {});
    expect(chosen.execArgv.filter((a) => a.startsWith("--v8-pool-size"))).toEqual(["--v8-pool-size=3"]);
    expect(chosen.execArgv.filter((a) => a.startsWith("--max-semi-space-size"))).toEqual(["--max-semi-space-size=4"]);
    expect(chosen.execArgv.filter((a) => a.startsWith("--wasm-tiering-budget"))).toEqual(["--wasm-tiering-budget=13000000"]);
    expect(chosen.execArgv).toContain("--stack-size=2000");
    // The user's flag holds for every thread, as node itself applies it.
    expect(chosen.workerYoungMiB).toBeGreaterThan(4);
    const own = runFixture([], { MALLOC_MMAP_THRESHOLD_: "65536" });
    expect(own.mmapThreshold).toBe("65536");
    // Nothing to set: not started again, so no V8 setting is added either.
    expect(own.execArgv.some((a) => a.startsWith("--v8-pool-size") || a.startsWith("--max-semi-space-size") || a.startsWith("--wasm-tiering-budget"))).toBe(false);
  }, 150_000);
});
