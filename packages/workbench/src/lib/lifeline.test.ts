// The lifeline: a child that stops when its owner cuts the pipe, and when its owner is SIGKILLed.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isAlive } from "./pidFile.js";
import { cutLifeline, spawnWithLifeline } from "./lifeline.js";

/** A node child that prints its pid, ignores SIGINT when asked to, and otherwise runs for a minute. */
const sleeper = (ignoreInt: boolean) => `${ignoreInt ? "process.on('SIGINT', () => {});" : ""} console.log(process.pid); setTimeout(() => {}, 60000);`;

async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) {
    text += String(chunk);
    if (text.includes("\n")) return text.split("\n")[0]!;
  }
  throw new Error(`stream ended before a line: ${text}`);
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

describe("spawnWithLifeline", () => {
  it("sends the signal when the pipe is cut, and exits with the child's code", async () => {
    const child = spawnWithLifeline(process.execPath, ["-e", sleeper(false)], { lifeline: { signal: "INT" } });
    const pid = Number(await firstLine(child.stdout!));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    cutLifeline(child);
    expect(await exited).toBe(130);
    expect(await gone(pid, 2_000)).toBe(true);
  });

  it("kills a child that ignores the signal once the grace has passed", async () => {
    const child = spawnWithLifeline(process.execPath, ["-e", sleeper(true)], { lifeline: { signal: "INT", graceSeconds: 1 } });
    const pid = Number(await firstLine(child.stdout!));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    cutLifeline(child);
    expect(await exited).toBe(137);
    expect(isAlive(pid)).toBe(false);
  });

  it("stops the child when its owner is SIGKILLed", async () => {
    // The owner: a node process that starts the child under a lifeline and prints the child's pid.
    const owner = `
      const { spawnWithLifeline } = await import(${JSON.stringify(new URL("./lifeline.ts", import.meta.url).href)});
      const child = spawnWithLifeline(process.execPath, ["-e", ${JSON.stringify(sleeper(true))}], { lifeline: { signal: "INT", graceSeconds: 1 } });
      child.stdout.pipe(process.stdout);
      setTimeout(() => {}, 60000);`;
    const parent = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", owner], { stdio: ["ignore", "pipe", "inherit"] });
    const pid = Number(await firstLine(parent.stdout!));
    expect(isAlive(pid)).toBe(true);
    parent.kill("SIGKILL");
    expect(await gone(pid, 5_000)).toBe(true);
  });
});
