// graph-cli kept loaded between commands, for a loop that builds on every save: the same unmodified
// commands as runGraphCli, in one long-lived process (warmGraphCliMain.ts). A fresh `graph build` of the
// project's mapping spends most of its time loading and warming up the AssemblyScript compiler and
// binaryen's optimizer; a warm one does not. If the process dies, the next command starts another.
import { spawn, type ChildProcess } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { findGraphCli, graphCliEnv, stripAnsi, type GraphCliResult, type GraphCliRunner } from "./graphCli.js";

export interface WarmGraphCli {
  /** Runs `graph <args>` in `cwd`; commands run one at a time, in call order. */
  run(args: string[], options: { cwd: string }): Promise<GraphCliResult>;
  /** `run` as a GraphCliOptions runner. */
  readonly runner: GraphCliRunner;
  /** Ends the process. */
  close(): Promise<void>;
}

interface Reply {
  id: number;
  code: number;
  output: string;
}

/**
 * How node runs the process's entry: run from source, Node's own type stripping where it has it (the
 * entry imports only node's modules), else tsx's loader, whose hooks also stand between graph-cli's
 * modules and V8's compile cache.
 */
function typeScriptFlags(main: string): string[] {
  if (!main.endsWith(".ts")) return [];
  return process.features.typescript ? ["--disable-warning=ExperimentalWarning"] : ["--import", "tsx"];
}

/** `projectDir`: the subgraph folder whose graph-cli is loaded (the current folder by default). */
export function createWarmGraphCli(options: { projectDir?: string } = {}): WarmGraphCli {
  const projectDir = options.projectDir ?? process.cwd();
  let child: ChildProcess | null = null;
  let nextId = 1;
  const waiting = new Map<number, (reply: Reply) => void>();
  let stderr = "";

  const start = (): ChildProcess => {
    const main = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./warmGraphCliMain.ts" : "./warmGraphCliMain.js", import.meta.url));
    const proc = spawn(process.execPath, [...typeScriptFlags(main), main, dirname(dirname(findGraphCli(projectDir).bin))], {
      cwd: projectDir,
      env: graphCliEnv(),
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    proc.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-10_000)));
    proc.on("message", (reply: Reply) => {
      waiting.get(reply.id)?.(reply);
      waiting.delete(reply.id);
    });
    proc.on("exit", (code, signal) => {
      if (child === proc) child = null;
      // Commands in flight end with what the process said before it died.
      for (const [id, resolve] of waiting) resolve({ id, code: 1, output: `graph-cli's process ended (${signal ?? `exit ${code}`}):\n${stderr}` });
      waiting.clear();
    });
    // It must not keep a CLI alive that is done.
    proc.unref();
    proc.channel?.unref();
    return proc;
  };

  let queue: Promise<unknown> = Promise.resolve();
  const warm: WarmGraphCli = {
    runner: (args, cwd) => warm.run(args, { cwd }),
    run(args, options) {
      const result = queue.then(
        () =>
          new Promise<GraphCliResult>((resolve) => {
            child ??= start();
            const id = nextId++;
            // The process is referenced while a command runs, so a caller's await keeps the event loop alive.
            child.ref();
            child.channel?.ref();
            const proc = child;
            waiting.set(id, (reply) => {
              proc.unref();
              proc.channel?.unref();
              resolve({ code: reply.code, stdout: stripAnsi(reply.output), stderr: "" });
            });
            proc.send({ id, args, cwd: options.cwd });
          }),
      );
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      const proc = child;
      child = null;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
      // Referenced until it has ended: with nothing else running, an idle (unreferenced) process's exit
      // would never be awaited, and a CLI awaiting close() at its top level would end with code 13.
      proc.ref();
      proc.kill("SIGTERM");
      await exited;
    },
  };
  return warm;
}
