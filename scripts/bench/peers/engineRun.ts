// What the engines' runs share: a child in its own process group (one signal ends all it started),
// a deadline that names what never happened, and the figure plus rows each run hands back.
import { spawn, type SpawnOptions } from "node:child_process";
import type { EngineFigure } from "./report.js";
import type { Row } from "./workload.js";

export interface EngineOptions {
  /** The deadline for the engine to index the chain's head. */
  timeoutMs: number;
  log(line: string): void;
}

export interface EngineRun {
  figure: EngineFigure;
  /** Every entity the engine holds, read back through its own API. */
  rows: Row[];
  /** The engine's own log, for `--logs`. */
  output: string;
}

export interface DetachedProcess {
  pid: number;
  output(): string;
  /** How it ended ("exit code 1"), or null while it runs. */
  ended(): string | null;
  /** SIGTERM to the whole group, SIGKILL after a grace; resolves once the child is gone. */
  stop(): Promise<void>;
}

export function runDetached(command: string, args: string[], options: Pick<SpawnOptions, "cwd" | "env">): DetachedProcess {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const ended = () => (child.signalCode ? `signal ${child.signalCode}` : child.exitCode !== null ? `exit code ${child.exitCode}` : null);
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group is gone.
    }
  };
  return {
    pid: child.pid!,
    output: () => output,
    ended,
    async stop() {
      signalGroup("SIGTERM");
      const timer = setTimeout(() => signalGroup("SIGKILL"), 10_000);
      if (ended() === null) await exited;
      clearTimeout(timer);
      // Whatever the group's leader left running.
      signalGroup("SIGKILL");
    },
  };
}

/**
 * The phase after an engine synced until its processes went quiet: its CPU seconds and peak memory are
 * read at its end.
 */
export function settledPhase(settled: { busySeconds: number; quiet: boolean }): { label: string; seconds: number } {
  return { label: settled.quiet ? "synced to quiet (CPU and memory measured to here)" : "synced to the end of the wait, still busy", seconds: settled.busySeconds };
}

/** Polls `done` every 100 ms; throws naming `what` at the deadline, or when the process ended first. */
export async function waitUntil(done: () => Promise<boolean>, options: { timeoutMs: number; what: string; ended?: () => string | null; output?: () => string }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await done()) return;
    const ended = options.ended?.();
    if (ended) throw new Error(`gave up waiting for ${options.what}: the process ended (${ended})\n${options.output?.() ?? ""}`);
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${options.what} after ${Math.round(options.timeoutMs / 1000)} s\n${options.output?.() ?? ""}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
