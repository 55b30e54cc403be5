// Process-id files: whether the process a file names still runs, and a claim on a folder that one
// process at a time may use (a second one is told who holds it; a dead holder's claim is taken over).
import { readFile, rm, writeFile } from "node:fs/promises";
import { resolve } from "node:path";

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid on the file's first line when that process still runs, else null. */
export async function livePidIn(file: string): Promise<number | null> {
  const pid = Number((await readFile(file, "utf8").catch(() => "")).split("\n")[0]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

export interface PidClaim {
  release(): Promise<void>;
}

// Claims held by this process (a second claim from the same process is refused too).
const held = new Set<string>();

/** Claims `file` for this process, or answers the pid of the live process that holds it. */
export async function claimPidFile(file: string): Promise<PidClaim | { heldBy: number }> {
  const path = resolve(file);
  if (held.has(path)) return { heldBy: process.pid };
  try {
    await writeFile(path, `${process.pid}\n`, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const owner = await livePidIn(path);
    if (owner !== null && owner !== process.pid) return { heldBy: owner };
    // The holder died without releasing (SIGKILL): take the claim over.
    await writeFile(path, `${process.pid}\n`);
  }
  held.add(path);
  return {
    async release() {
      if (!held.delete(path)) return;
      if ((await livePidIn(path)) === process.pid) await rm(path, { force: true });
    },
  };
}
