import { spawn } from "node:child_process";
import { join } from "node:path";
import { projectRoot } from "./projectRoot.js";

export const graphCliBin = join(projectRoot, "node_modules", "@graphprotocol", "graph-cli", "bin", "run.js");

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
  /** Another graph-cli's entry point (an older release a subgraph pins); the project's by default. */
  bin?: string;
  /** Runs the project's graph-cli another way (a warm process, warmGraphCli.ts) instead of a fresh process. */
  runner?: GraphCliRunner;
}

/** Runs `graph <args>` in `cwd`, as a fresh graph-cli process would. */
export type GraphCliRunner = (args: string[], cwd: string) => Promise<GraphCliResult>;

export function runGraphCli(args: string[], options: GraphCliOptions = {}): Promise<GraphCliResult> {
  const { runner } = options;
  if (runner && !options.bin) {
    return runner(args, options.cwd ?? projectRoot).then((result) => {
      options.onOutput?.(result.stdout + result.stderr);
      return result;
    });
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.bin ?? graphCliBin, ...args], {
      cwd: options.cwd ?? projectRoot,
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
