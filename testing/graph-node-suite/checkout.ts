// graph-node's `tests/` folder, copied from the checkout a user names into a scratch folder outside the
// project: the cases, contracts and mappings are read there at run time and never enter the repository.
// The checkout may be a clone or a bare mirror (exported with `git archive`, `rev` picks the commit).
import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { BaseError } from "subgraph-workbench/lib/errors";
import { copyCheckout } from "../sourceCheckout.js";

export class SuiteCheckoutError extends BaseError {
  override name = "SuiteCheckoutError";
}

export interface SuiteCheckout {
  /** The scratch folder: `tests/` of graph-node inside it. */
  root: string;
  testsDir: string;
  commit: string | null;
  remove(): Promise<void>;
}

export async function copyGraphNodeTests(source: string, rev?: string): Promise<SuiteCheckout> {
  const copy = await copyCheckout(source, { prefix: "graph-node-suite", folder: "tests", ...(rev ? { rev } : {}) });
  const testsDir = join(copy.dir, "tests");
  const hasCases = await stat(join(testsDir, "integration-tests")).then((s) => s.isDirectory(), () => false);
  if (!hasCases) {
    await copy.remove();
    throw new SuiteCheckoutError(`${source} is not a graph-node checkout: it has no tests/integration-tests`);
  }
  return { root: copy.dir, testsDir, commit: copy.commit, remove: copy.remove };
}

/** Runs a command to its end; its stdout, or an error with its stderr. */
export function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...(options.cwd ? { cwd: options.cwd } : {}), env: options.env ?? process.env });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", (cause) => reject(new SuiteCheckoutError(`Cannot run ${command}`, { cause })));
    // gnd prints a failed deploy's reason on stdout and only its verdict on stderr: both are kept.
    child.on("exit", (code) => (code === 0 ? resolvePromise(out) : reject(new SuiteCheckoutError(`${command} ${args.slice(0, 2).join(" ")} failed (exit ${code}): ${`${err.trim()}\n${out.trim()}`.trim().slice(-2000)}`))));
  });
}
