import { spawn } from "node:child_process";
import { join } from "node:path";
import { projectRoot } from "../../hardhat/projectRoot.js";

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one of our TypeScript CLIs the way `npm run` does (tsx on the project's Node). */
export function runScript(script: string, args: string[] = [], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const tsx = join(projectRoot, "node_modules", "tsx", "dist", "cli.mjs");
    const child = spawn(process.execPath, [tsx, join(projectRoot, script), ...args], {
      cwd: options.cwd ?? projectRoot,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 240_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}
