// The process guards of the long-running CLIs, on a real child process: a stray throw and a stray
// rejection are logged and the process stays up; the first SIGINT starts the clean stop, and a second
// one ends a stop that hangs.
import { spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../../../hardhat/projectRoot.js";
import { cpuSecondsOf } from "../lib/processCpu.js";

describe("process guards", () => {
  it("log stray errors and keep running; a second SIGINT exits at once (130)", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "_test", "processGuardsFixture.ts")], { cwd: projectRoot, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const waitFor = async (pattern: RegExp) => {
      const deadline = Date.now() + 30_000;
      while (!pattern.test(output)) {
        if (Date.now() > deadline) throw new Error(`never saw ${pattern}:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      await waitFor(/still up/);
      expect(output).toMatch(/error: uncaught exception \(the process keeps running\): Error: a stray throw/);
      expect(output).toMatch(/error: unhandled rejection \(the process keeps running\): Error: a stray rejection/);
      child.kill("SIGINT");
      await waitFor(/SIGINT: stopping/);
      await new Promise((r) => setTimeout(r, 300));
      expect(child.exitCode).toBeNull();
      child.kill("SIGINT");
      expect(await exited).toBe(130);
      expect(output).toMatch(/SIGINT again: exiting without waiting for the clean stop/);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("keep a CLI up and idle once nobody reads its output (closed pipes: EPIPE)", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "_test", "closedOutputFixture.ts")], { cwd: projectRoot, stdio: ["ignore", "pipe", "pipe"] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (c: Buffer) => c.toString().includes("ready") && resolve());
        child.once("exit", (code) => reject(new Error(`the fixture exited (${code}) before it was ready`)));
      });
      // As when the process reading its output dies: every later write fails with EPIPE.
      child.stdout.destroy();
      child.stderr.destroy();
      await new Promise((r) => setTimeout(r, 500));
      const before = cpuSecondsOf(child.pid!);
      await new Promise((r) => setTimeout(r, 2_000));
      // Logging a line every 20 ms costs next to nothing; the loop on the closed pipe took a whole core.
      expect(cpuSecondsOf(child.pid!) - before).toBeLessThan(0.5);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("stop a CLI whose parent was SIGKILLed (an orphan serves on otherwise), running its clean stop", async () => {
    const marker = join(await mkdtemp(join(tmpdir(), "orphan-")), "stopped");
    const fixture = join(import.meta.dirname, "_test", "orphanFixture.ts");
    // A parent in between, as tsx or npm is: it starts the CLI and prints its pid.
    const parent = spawn(process.execPath, ["-e", `const c = require("node:child_process").spawn(process.execPath, ["--import", "tsx", ${JSON.stringify(fixture)}, ${JSON.stringify(marker)}], { stdio: "ignore" }); console.log("cli " + c.pid); setInterval(() => {}, 1000);`], { cwd: projectRoot, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    parent.stdout.on("data", (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 30_000;
    while (!/cli \d+/.test(output) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const cli = Number(/cli (\d+)/.exec(output)![1]);
    // The watch has noted its parent (the fixture says so once it has).
    while ((await readFile(marker, "utf8").catch(() => "")) !== "watching") {
      if (Date.now() > deadline) throw new Error("the CLI never started watching its parent");
      await new Promise((r) => setTimeout(r, 50));
    }
    parent.kill("SIGKILL");
    const running = () => {
      try {
        process.kill(cli, 0);
        return true;
      } catch {
        return false;
      }
    };
    const stopBy = Date.now() + 15_000;
    while (running() && Date.now() < stopBy) await new Promise((r) => setTimeout(r, 100));
    expect(running()).toBe(false);
    expect(await readFile(marker, "utf8")).toBe("stopped cleanly");
  });
});

