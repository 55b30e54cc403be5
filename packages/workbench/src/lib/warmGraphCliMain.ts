// The process behind warmGraphCli.ts: runs the unmodified graph-cli's commands (its own oclif entry,
// as bin/run.js does) one at a time, for requests that arrive over IPC, and answers each with the exit
// code and the output the command wrote. Staying alive keeps the AssemblyScript compiler and binaryen
// loaded and compiled by V8, which a fresh `graph build` pays for again each time.
import * as nodeModule from "node:module";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

interface Request {
  id: number;
  args: string[];
  cwd: string;
}

// V8's code cache on disk (Node's default folder): the next process skips compiling graph-cli's and
// the AssemblyScript compiler's JavaScript again (a second or so of each cold start).
nodeModule.enableCompileCache?.();

const graphCliRoot = process.argv[2] ?? "";
const requireFromCli = createRequire(join(graphCliRoot, "package.json"));
// AssemblyScript's compiler takes binaryen from `global.binaryen` when set: the WebAssembly build of the
// same binaryen release instead of its JavaScript translation, which spends seconds per build here.
// Byte for byte the same output (warmGraphCli.test.ts); a graph-cli without asc 0.19's layout keeps its own.
try {
  const requireFromAsc = createRequire(requireFromCli.resolve("assemblyscript/cli/asc"));
  (globalThis as { binaryen?: unknown }).binaryen = requireFromAsc("binaryen/wasm.js");
} catch {
  // Its compiler loads binaryen as it always does.
}
const oclif = (await import(pathToFileURL(requireFromCli.resolve("@oclif/core")).href)) as { run(argv: string[], root: string): Promise<unknown> };

/** The exit code an oclif command ended with: its ExitError's or CLIError's, else 1 for a throw. */
function exitCode(error: unknown): number {
  const code = (error as { oclif?: { exit?: unknown } } | null)?.oclif?.exit;
  return typeof code === "number" ? code : 1;
}

async function runOne(request: Request): Promise<{ id: number; code: number; output: string }> {
  let output = "";
  const capture = (chunk: unknown) => {
    output += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString();
    return true;
  };
  const writes = { out: process.stdout.write, err: process.stderr.write };
  const exitListeners = process.listeners("exit");
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  let code = 0;
  try {
    process.chdir(request.cwd);
    await oclif.run(request.args, graphCliRoot);
  } catch (error) {
    code = exitCode(error);
    // ExitError carries no text; anything else is what a fresh process would print before exiting.
    if (!/^EEXIT/.test((error as Error)?.message ?? "")) output += `\n${error instanceof Error ? error.message : String(error)}\n`;
  } finally {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
    // graph-cli's compiler adds an exit hook per compile and leaves it behind when the compile throws.
    for (const listener of process.listeners("exit")) if (!exitListeners.includes(listener)) process.removeListener("exit", listener);
  }
  return { id: request.id, code, output };
}

let queue: Promise<void> = Promise.resolve();
process.on("message", (request: Request) => {
  queue = queue.then(async () => {
    const reply = await runOne(request);
    // The process ends by a signal, which writes nothing: the cache goes to disk after each command.
    nodeModule.flushCompileCache?.();
    process.send?.(reply);
  });
});
// The parent's end closes the channel: nothing left to do.
process.on("disconnect", () => process.exit(0));
