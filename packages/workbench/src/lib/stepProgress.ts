// Progress of a long wait made of a known number of steps (test files compiled, parity cases run, a
// scenario's transactions sent): a cli-progress bar in a terminal, with the count, the step at hand and
// the time left; elsewhere (CI, a file) a plain line at most every few seconds and one at the end, and
// none at all for a wait that ends before the first one is due.
import cliProgress from "cli-progress";
import { formatSeconds } from "./catchUpProgress.js";

export interface StepProgress {
  /** One more step done; `next` names the one now under way (shown beside the bar). */
  step(next?: string): void;
  /** Done: the bar stays at its last state; a plain run gets its closing line if it printed any. */
  stop(): void;
}

export interface StepProgressOptions {
  /** What is counted, as in "compiled 3 of 12 test files". */
  label: string;
  total: number;
  unit: string;
  /** Where the bar goes (default stderr, so that a command's own output stays as it is); a bar only on a terminal. */
  stream?: NodeJS.WriteStream;
  /** Plain lines without a terminal (default: written to `stream`). */
  plainLine?: (line: string) => void;
  /** A plain line at most this often, the first one this long after the start (default 5 s). */
  plainEveryMs?: number;
  now?: () => number;
}

/** Seconds left at the mean pace so far; null before the first step. */
export function secondsLeft(done: number, total: number, elapsedMs: number): number | null {
  if (done <= 0) return null;
  return done >= total ? 0 : ((total - done) * elapsedMs) / done / 1000;
}

export function createStepProgress(options: StepProgressOptions): StepProgress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const plainLine = options.plainLine ?? ((line: string) => stream.write(`${line}\n`));
  const every = options.plainEveryMs ?? 5_000;
  const started = now();
  let done = 0;
  let current = "";
  let lastPlain = started;
  let printed = false;
  const bar =
    stream.isTTY === true
      ? new cliProgress.SingleBar(
          { stream, format: `${options.label} [{bar}] {value}/{total} ${options.unit} | ETA {left} | {current}`, hideCursor: true, clearOnComplete: false, stopOnComplete: false },
          cliProgress.Presets.shades_classic,
        )
      : null;
  bar?.start(options.total, 0, { left: "?", current: "" });
  const line = () => `${options.label}: ${done} of ${options.total} ${options.unit}${done < options.total ? `, ETA ${formatSeconds(secondsLeft(done, options.total, now() - started))}${current ? ` (now: ${current})` : ""}` : ` in ${formatSeconds((now() - started) / 1000)}`}`;
  return {
    step(next) {
      done = Math.min(options.total, done + 1);
      current = next ?? "";
      if (bar) {
        bar.update(done, { left: formatSeconds(secondsLeft(done, options.total, now() - started)), current });
        return;
      }
      if (now() - lastPlain < every) return;
      lastPlain = now();
      printed = true;
      plainLine(line());
    },
    stop() {
      if (bar) bar.stop();
      else if (printed) plainLine(line());
    },
  };
}
