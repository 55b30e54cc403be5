// A peer's app, installed on first use from its committed lock file into the bench's cache (never by the
// project's npm ci), and installed again only when that lock file changed.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { projectRoot } from "../../../hardhat/projectRoot.js";

export interface PeerApp {
  /** As the bench names it in its log and errors: "Subsquid 1.27.3". */
  label: string;
  /** The committed app: package.json and package-lock.json beside its sources. */
  sourceDir: string;
  /** Where it is installed, under node_modules/.cache/bench-peers/. */
  installDir: string;
  /** A file the finished install holds (relative to installDir), e.g. node_modules/<peer>/package.json. */
  installedMarker: string;
}

/** npm's own variables from an `npm run` above us would point a child npm (and the peer) at the project: dropped. */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

/** Runs `npm ci` in the install folder unless the same lock file is installed there already. */
/** A command run to its end: its exit code (null when it could not start) and its output, both streams. */
export async function runToEnd(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; text: string }> {
  return new Promise<{ code: number | null; text: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (c: Buffer) => (text += c.toString()));
    child.stderr.on("data", (c: Buffer) => (text += c.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, text }));
  }).catch((error: unknown) => ({ code: null, text: String(error) }));
}

export async function installPeerApp(app: PeerApp, log: (line: string) => void): Promise<void> {
  const lock = await readFile(join(app.sourceDir, "package-lock.json"), "utf8");
  const installedLock = await readFile(join(app.installDir, "package-lock.json"), "utf8").catch(() => null);
  if (installedLock === lock && existsSync(join(app.installDir, app.installedMarker))) return;
  const where = relative(projectRoot, app.installDir);
  log(`installing ${app.label} into ${where}: npm ci downloads its packages from the npm registry (once; later runs reuse it)`);
  await rm(app.installDir, { recursive: true, force: true });
  await mkdir(app.installDir, { recursive: true });
  for (const file of ["package.json", "package-lock.json"]) await cp(join(app.sourceDir, file), join(app.installDir, file));
  const output = await runToEnd("npm", ["ci", "--no-audit", "--no-fund"], app.installDir, cleanEnv());
  if (output.code !== 0) {
    // A half-done install must not pass for a finished one next time.
    await rm(join(app.installDir, "package-lock.json"), { force: true });
    throw new Error(`installing ${app.label} failed (npm ci in ${where}, exit ${output.code}):\n${output.text.trim().split("\n").slice(-15).join("\n")}`);
  }
}
