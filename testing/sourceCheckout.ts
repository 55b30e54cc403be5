// Other people's code (a public subgraph, graph-node's test suites), copied from the checkout a user
// names into a scratch folder outside the project: nothing of it is ever written into the repository,
// and nothing is downloaded. The checkout may be a working tree (`git clone ...`) or a bare repository
// (a mirror); a bare one is exported with `git archive`.
import { spawn } from "node:child_process";
import { cp, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { BaseError } from "subgraph-workbench/lib/errors";

export class CheckoutError extends BaseError {
  override name = "CheckoutError";
}

export interface Checkout {
  /** The scratch copy, to configure and build. */
  dir: string;
  /** The commit the copy was taken from; null for a folder that is not a git checkout. */
  commit: string | null;
  remove(): Promise<void>;
}

const SKIPPED = new Set([".git", "node_modules", "build", "generated"]);

export interface CopyCheckoutOptions {
  /** The commit (bare repositories only; default HEAD). */
  rev?: string;
  /** The scratch folder's name starts with it. */
  prefix?: string;
  /** Only this folder of the checkout, at the same path in the copy. */
  folder?: string;
}

/** Copies `source` (a working tree or a bare git repository), or one folder of it. */
export async function copyCheckout(source: string, options: CopyCheckoutOptions = {}): Promise<Checkout> {
  const from = resolve(source);
  if (!(await isDirectory(from))) throw new CheckoutError(`No checkout at ${source}`, { details: { source } });
  const dir = await mkdtemp(join(tmpdir(), `${options.prefix ?? "checkout"}-`));
  const folder = options.folder ?? ".";
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    if (await isBareRepository(from)) {
      const commit = (await run("git", ["--git-dir", from, "rev-parse", `${options.rev ?? "HEAD"}^{commit}`])).trim();
      await run("sh", ["-c", `git --git-dir "$0" archive --format=tar "$1" "$3" | tar -x -C "$2"`, from, commit, dir, folder]);
      return { dir, commit, remove };
    }
    if (options.rev) throw new CheckoutError(`--rev applies to a bare repository; check ${options.rev} out in ${source} instead`);
    const top = join(from, folder);
    if (!(await isDirectory(top))) throw new CheckoutError(`${source} has no ${folder}`, { details: { source } });
    await cp(top, join(dir, folder), { recursive: true, filter: (path) => path === top || !SKIPPED.has(basename(path)) });
    const commit = (await isDirectory(join(from, ".git"))) ? (await run("git", ["-C", from, "rev-parse", "HEAD"])).trim() : null;
    return { dir, commit, remove };
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

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", (cause) => reject(new CheckoutError(`Cannot run ${command}`, { cause })));
    child.on("exit", (code) => (code === 0 ? resolvePromise(out) : reject(new CheckoutError(`${command} ${args[0] ?? ""} failed (exit ${code}): ${err.trim()}`))));
  });
}
