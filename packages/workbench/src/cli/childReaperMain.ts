// The child reaper's own process (started by childReaper.ts, detached from the terminal): it notes the
// processes below the watched one twice a second, and when its stdin closes, which happens however the
// watched process ends (a clean exit, a crash, SIGKILL), it ends those that are still running.
import { descendantsOf, isRunning } from "../lib/processTree.js";

const watched = Number(process.argv[2]);
const SNAPSHOT_MS = 500;
const GRACE_MS = 3000;

let known: number[] = [];
// A look taken as the watched process dies sees none of its children (they are handed to init at
// once), and would leave the list empty for the reap that its closed pipe starts a moment later: a
// look counts only if the watched process was still there after it was taken.
const snapshot = () => {
  const below = descendantsOf(watched).filter((pid) => pid !== process.pid);
  if (isRunning(watched)) known = below;
};
snapshot();
const timer = setInterval(snapshot, SNAPSHOT_MS);

function signal(pids: number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // Already gone.
    }
  }
}

async function reap(): Promise<void> {
  clearInterval(timer);
  const left = known.filter(isRunning);
  if (left.length > 0) {
    signal(left, "SIGTERM");
    const deadline = Date.now() + GRACE_MS;
    while (Date.now() < deadline && left.some(isRunning)) await new Promise((r) => setTimeout(r, 100));
    const stubborn = left.filter(isRunning);
    signal(stubborn, "SIGKILL");
    try {
      process.stderr.write(`npm start had ended; ended ${left.length} process(es) it had started (${left.join(", ")})${stubborn.length ? `, ${stubborn.length} with SIGKILL` : ""}\n`);
    } catch {
      // No terminal left to tell.
    }
  }
  process.exit(0);
}

process.stdin.on("error", () => void reap());
process.stdin.on("close", () => void reap());
process.stdin.resume();
