// The child reaper on real processes: a CLI that is SIGKILLed leaves no child behind, and `npm start`
// (run as npm runs it, through the tsx CLI) whose main-job process is SIGKILLed while it serves leaves
// neither the Hardhat chain it started nor any other process.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { freePort } from "../lib/freePort.js";
import { projectRoot } from "../../../../hardhat/projectRoot.js";
import { descendantsOf, isRunning } from "../lib/processTree.js";

// The second case runs the whole main job: generous limits for a loaded 2-core machine.
vi.setConfig({ testTimeout: 400_000 });

function collect(child: ChildProcess): () => string {
  let output = "";
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  return () => output;
}

async function waitFor(what: () => boolean, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!what()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${describe()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the child reaper", () => {
  it("ends the children of a CLI that was SIGKILLed", async () => {
    const cli = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "_test", "childReaperFixture.ts")], { cwd: projectRoot, stdio: ["ignore", "pipe", "pipe"] });
    const output = collect(cli);
    await waitFor(() => /child \d+/.test(output()), 30_000, output);
    const child = Number(/child (\d+)/.exec(output())![1]);
    // Let the reaper take its first look.
    await new Promise((r) => setTimeout(r, 1500));
    expect(isRunning(child)).toBe(true);
    cli.kill("SIGKILL");
    await waitFor(() => !isRunning(child), 10_000, () => `child ${child} still runs`);
  });

  it("leaves no process of `npm start` behind when its main-job process is SIGKILLed while serving", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "start-kill-"));
    // The main job records the token it deploys in the project's networks.json: put it back afterwards.
    const networks = await readFile(join(projectRoot, "networks.json"), "utf8");
    const ports = ["--query-port", "--admin-port", "--ipfs-port", "--status-port"].flatMap((flag) => [flag, ""]);
    for (let i = 1; i < ports.length; i += 2) ports[i] = String(await freePort());
    // A chain port nothing answers on: the main job starts (and owns) a Hardhat chain there.
    const chainPort = await freePort();
    // As npm runs it: the tsx CLI, which runs the script in a node process of its own.
    const start = spawn(process.execPath, [join(projectRoot, "node_modules", "tsx", "dist", "cli.mjs"), join(projectRoot, "scripts", "start.ts"), "--data-dir", dataDir, "--approvals", "2", ...ports], {
      cwd: projectRoot,
      env: { ...process.env, ETHEREUM_RPC: `http://127.0.0.1:${chainPort}`, SUBGRAPH_NAME: "test/reaper", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = collect(start);
    try {
      await waitFor(() => /Serving\. Press Ctrl-C to stop\./.test(output()) || start.exitCode !== null, 300_000, output);
      expect(output()).toMatch(/\[1\/7\] starting a Hardhat chain/);
      const below = descendantsOf(start.pid!);
      // At least the script's node process, the Hardhat chain, and the reaper.
      expect(below.length, output()).toBeGreaterThanOrEqual(3);
      // The process that runs the main job (tsx's child) dies as in a crash: no cleanup of its own runs.
      const script = below[0]!;
      process.kill(script, "SIGKILL");
      await waitFor(() => start.exitCode !== null || start.signalCode !== null, 30_000, output);
      await waitFor(() => below.every((pid) => !isRunning(pid)), 30_000, () => `still running: ${below.filter(isRunning).join(", ")}\n${output()}`);
      // The chain's port no longer answers.
      await expect(fetch(`http://127.0.0.1:${chainPort}`, { method: "POST", body: "{}", signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    } finally {
      if (start.exitCode === null) start.kill("SIGKILL");
      await writeFile(join(projectRoot, "networks.json"), networks);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
