// The processes below a process, read from /proc (Linux) or `ps` (macOS, BSD): what the child reaper
// must end when its watched process is gone, and what the tests look for afterwards.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** Every process with its parent, or an empty list where neither /proc nor `ps` can tell. */
function parentsOfAll(): Map<number, number> {
  const parents = new Map<number, number>();
  let entries: string[] | null = null;
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    entries = null;
  }
  if (entries) {
    for (const name of entries) {
      try {
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        parents.set(Number(name), ppid);
      } catch {
        // The process ended while the table was read.
      }
    }
    return parents;
  }
  try {
    for (const line of execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" }).split("\n")) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      if (pid && ppid !== undefined && !Number.isNaN(ppid)) parents.set(pid, ppid);
    }
  } catch {
    // No ps (Windows): nothing to report.
  }
  return parents;
}

/** The pids below `root` (children, their children, ...), nearest first; `root` itself is not included. */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentsOfAll()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** True while a process with this pid exists (a zombie counts as ended). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true;
  }
}
