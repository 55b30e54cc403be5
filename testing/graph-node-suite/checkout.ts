// graph-node's `tests/` folder, copied from the checkout a user names into a scratch folder outside the
// project: the cases, contracts and mappings are read there at run time and never enter the repository.
// The checkout may be a clone or a bare mirror (exported with `git archive`, `rev` picks the commit).
import { spawn } from "node:child_process";
import { cp, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BaseError } from "subgraph-workbench/lib/errors";

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
  const from = resolve(source);
  if (!(await isDirectory(from))) throw new SuiteCheckoutError(`No checkout at ${source}`);
  const root = await mkdtemp(join(tmpdir(), "graph-node-suite-"));
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    let commit: string | null;
    if (await isBareRepository(from)) {
      commit = (await run("git", ["--git-dir", from, "rev-parse", `${rev ?? "HEAD"}^{commit}`])).trim();
      await run("sh", ["-c", `git --git-dir "$0" archive --format=tar "$1" tests | tar -x -C "$2"`, from, commit, root]);
    } else {
      if (rev) throw new SuiteCheckoutError(`--rev applies to a bare repository; check ${rev} out in ${source} instead`);
      await cp(join(from, "tests"), join(root, "tests"), { recursive: true, filter: (p) => !p.includes("/node_modules") && !p.endsWith("/build") && !p.endsWith("/generated") });
      commit = (await isDirectory(join(from, ".git"))) ? (await run("git", ["-C", from, "rev-parse", "HEAD"])).trim() : null;
    }
    const testsDir = join(root, "tests");
    if (!(await isDirectory(join(testsDir, "integration-tests")))) throw new SuiteCheckoutError(`${source} is not a graph-node checkout: it has no tests/integration-tests`);
    return { root, testsDir, commit, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isDirectory(), () => false);
}

async function isBareRepository(path: string): Promise<boolean> {
  return (await isDirectory(join(path, "objects"))) && (await stat(join(path, "HEAD")).then((s) => s.isFile(), () => false));
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
