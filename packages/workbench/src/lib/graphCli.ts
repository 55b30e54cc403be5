import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import semver from "semver";
import { BaseError } from "./errors.js";

/** The graph-cli releases the workbench drives: their commands, flags and output it reads. */
export const SUPPORTED_GRAPH_CLI = ">=0.87.0 <1.0.0";

export class GraphCliNotFoundError extends BaseError {
  override name = "GraphCliNotFoundError";
}

export interface GraphCliInstall {
  /** Its entry point (`bin/run.js`). */
  bin: string;
  version: string;
}

/**
 * The project's own graph-cli (a peer dependency): resolved from `projectDir` as Node resolves it, so a
 * subgraph folder uses the release it installed. Throws when there is none, or one the workbench cannot drive.
 */
export function findGraphCli(projectDir: string = process.cwd()): GraphCliInstall {
  let packageJson: string;
  try {
    packageJson = createRequire(join(projectDir, "package.json")).resolve("@graphprotocol/graph-cli/package.json");
  } catch (cause) {
    throw new GraphCliNotFoundError(`no @graphprotocol/graph-cli is installed for ${projectDir}: add it to the project (npm i -D @graphprotocol/graph-cli)`, { cause, details: { projectDir } });
  }
  const { version } = JSON.parse(readFileSync(packageJson, "utf8")) as { version: string };
  if (!semver.satisfies(version, SUPPORTED_GRAPH_CLI, { includePrerelease: true })) {
    throw new GraphCliNotFoundError(`@graphprotocol/graph-cli ${version} is installed, and the workbench drives graph-cli ${SUPPORTED_GRAPH_CLI}: install one of those`, { details: { version, packageJson } });
  }
  return { bin: join(dirname(packageJson), "bin", "run.js"), version };
}

/**
 * The environment graph-cli runs in here: colour off, so callers can read its output, and oclif's update
 * check off. That check starts a detached process that asks the npm registry for graph-cli's latest
 * release once a day: traffic off this machine that no command asked for, from tests and benchmarks too.
 */
export function graphCliEnv(): NodeJS.ProcessEnv {
  return { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", GRAPH_SKIP_NEW_VERSION_CHECK: "true" };
}

export interface GraphCliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the unmodified graph-cli on the Node that runs us (so Node 22 even when the shell has 20), in
 * graphCliEnv().
 */
export interface GraphCliOptions {
  cwd?: string;
  onOutput?: (text: string) => void;
  /** Another graph-cli's entry point (an older release a subgraph pins); the one `cwd` resolves by default. */
  bin?: string;
  /** Runs the project's graph-cli another way (a warm process, warmGraphCli.ts) instead of a fresh process. */
  runner?: GraphCliRunner;
}

/** Runs `graph <args>` in `cwd`, as a fresh graph-cli process would. */
export type GraphCliRunner = (args: string[], cwd: string) => Promise<GraphCliResult>;

export function runGraphCli(args: string[], options: GraphCliOptions = {}): Promise<GraphCliResult> {
  const { runner } = options;
  if (runner && !options.bin) {
    return runner(args, options.cwd ?? process.cwd()).then((result) => {
      options.onOutput?.(result.stdout + result.stderr);
      return result;
    });
  }
  return new Promise((resolve, reject) => {
    const cwd = options.cwd ?? process.cwd();
    let bin: string;
    try {
      bin = options.bin ?? findGraphCli(cwd).bin;
    } catch (error) {
      reject(error);
      return;
    }
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: graphCliEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      options.onOutput?.(chunk.toString());
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      options.onOutput?.(chunk.toString());
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Runs graph-cli and throws with its output when it fails. */
export async function graphCli(args: string[], options: GraphCliOptions = {}): Promise<GraphCliResult> {
  const result = await runGraphCli(args, options);
  if (result.code !== 0) {
    throw new Error(`graph ${args[0] ?? ""} failed (exit ${result.code}):\n${stripAnsi(result.stdout + result.stderr).trim()}`);
  }
  return result;
}

export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "");
}

/** The manifest's IPFS hash that `graph build --ipfs` (and `graph deploy`) print as "Build completed: Qm...". */
export function builtManifestHash(output: string): string | null {
  return /Build completed:\s*(Qm[1-9A-HJ-NP-Za-km-z]{44})/.exec(stripAnsi(output))?.[1] ?? null;
}
