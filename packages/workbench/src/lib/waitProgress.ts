// Progress of a long wait whose length nobody knows beforehand (a compile, a build): the time it has
// taken so far, kept current by cli-progress on a terminal; elsewhere (CI, a file) a line every few
// seconds while it lasts, none at all for a wait that ends before the first one is due.
import cliProgress from "cli-progress";
import { formatSeconds } from "./catchUpProgress.js";

export interface WaitProgressOptions {
  /** Where the line goes (default stdout); the live line only on a terminal. */
  stream?: NodeJS.WriteStream;
  /** Plain lines without a terminal (default: written to `stream`). */
  plainLine?: (line: string) => void;
  /** A plain line this often, the first this long after the start (default 10 s). */
  plainEveryMs?: number;
}

/** Resolves (or rejects) as `work` does, showing `label` and the time taken meanwhile. */
export async function whileWaiting<T>(label: string, work: Promise<T>, options: WaitProgressOptions = {}): Promise<T> {
  const stream = options.stream ?? process.stdout;
  const plainLine = options.plainLine ?? ((line: string) => stream.write(`${line}\n`));
  const started = Date.now();
  if (stream.isTTY === true) {
    const bar = new cliProgress.SingleBar({ stream, format: `${label} ... {duration_formatted}`, hideCursor: true, clearOnComplete: true }, cliProgress.Presets.shades_classic);
    bar.start(1, 0);
    try {
      return await work;
    } finally {
      bar.stop();
    }
  }
  const timer = setInterval(() => plainLine(`${label}: still waiting, ${formatSeconds((Date.now() - started) / 1000)} so far`), options.plainEveryMs ?? 10_000);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}
