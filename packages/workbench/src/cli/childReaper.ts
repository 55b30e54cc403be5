// Ends the processes a CLI started (the Hardhat chain, an embedded PostgreSQL server, graph-node) when
// the CLI ends, however it ends: a crash or a SIGKILL runs none of its own cleanup. A small detached
// process watches it through a pipe that only the CLI's death closes (childReaperMain.ts).
import { spawn } from "node:child_process";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";

export function startChildReaper(): void {
  const main = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./childReaperMain.ts" : "./childReaperMain.js", import.meta.url));
  const reaper = spawn(process.execPath, [...(main.endsWith(".ts") ? ["--import", "tsx"] : []), main, String(process.pid)], {
    // Its own session: a Ctrl-C in the terminal does not reach it before it has done its job.
    detached: true,
    stdio: ["pipe", "ignore", "inherit"],
  });
  reaper.on("error", () => {});
  // Neither the process nor its pipe keeps this CLI alive.
  reaper.unref();
  (reaper.stdin as Socket | null)?.unref();
}
