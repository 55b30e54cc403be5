// Progress of a long wait on a chain (a catch-up): blocks done of the head, blocks/s and events/s over
// the last seconds, and the time left. In a terminal, a cli-progress bar per deployment (other lines go
// above them through `log`); elsewhere (CI, a file) plain lines, one per deployment at most every few
// seconds and when it reaches the head.
import cliProgress from "cli-progress";

export interface CatchUpSample {
  /** The last block indexed (null: none yet). */
  block: number | null;
  head: number | null;
  /** Events (handler calls) so far, when known. */
  events?: number | null;
}

export interface CatchUpBar {
  update(sample: CatchUpSample): void;
}

export interface ProgressBoard {
  /** The bar of `key` (made on first use): `label` names it, blocks count from `startBlock`. */
  bar(key: string, label: string, startBlock: number): CatchUpBar;
  /** A line of other output, above the bars in a terminal. */
  log(line: string): void;
  /** Ends the bars (their last state stays on screen). */
  stop(): void;
}

export interface ProgressBoardOptions {
  /** Where bars go (default stdout); bars only when it is a terminal. */
  stream?: NodeJS.WriteStream;
  /** Plain lines without a terminal (default: written to `stream`). */
  plainLine?: (line: string) => void;
  /** How often a plain line repeats for a moving deployment (default 2 s). */
  plainEveryMs?: number;
  now?: () => number;
}

interface Point {
  at: number;
  block: number;
  events: number;
}

/** The window the rates are measured over. */
const WINDOW_MS = 10_000;

export interface CatchUpRates {
  blocksPerSecond: number | null;
  eventsPerSecond: number | null;
  /** Seconds to the head at the current block rate; 0 at the head. */
  secondsLeft: number | null;
}

/** Rates from the points of the last WINDOW_MS, oldest first. */
export function ratesOf(points: readonly Point[], head: number | null): CatchUpRates {
  const last = points.at(-1);
  const first = points[0];
  if (!last || !first) return { blocksPerSecond: null, eventsPerSecond: null, secondsLeft: null };
  const seconds = (last.at - first.at) / 1000;
  const blocksPerSecond = seconds > 0 ? (last.block - first.block) / seconds : null;
  const eventsPerSecond = seconds > 0 ? (last.events - first.events) / seconds : null;
  const secondsLeft = head === null ? null : last.block >= head ? 0 : blocksPerSecond ? (head - last.block) / blocksPerSecond : null;
  return { blocksPerSecond, eventsPerSecond, secondsLeft };
}

export function formatSeconds(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return "?";
  if (s < 90) return `${Math.ceil(s)} s`;
  if (s < 5400) return `${(s / 60).toFixed(1)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

const rate = (v: number | null): string => (v === null ? "?" : v >= 100 ? v.toFixed(0) : v.toFixed(1));

export function createProgressBoard(options: ProgressBoardOptions = {}): ProgressBoard {
  const stream = options.stream ?? process.stdout;
  const now = options.now ?? Date.now;
  const plainLine = options.plainLine ?? ((line: string) => stream.write(`${line}\n`));
  const plainEvery = options.plainEveryMs ?? 2_000;
  const tty = stream.isTTY === true;
  const multi = tty
    ? new cliProgress.MultiBar(
        {
          stream,
          format: "{label} [{bar}] {percentage}% | block {block} of {head} | {blocksPerSecond} blocks/s, {eventsPerSecond} events/s | ETA {left}",
          hideCursor: true,
          clearOnComplete: false,
          stopOnComplete: false,
          // Lines logged meanwhile (the node's log) go above the bars.
          forceRedraw: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  const bars = new Map<string, CatchUpBar>();

  return {
    bar(key, label, startBlock) {
      const known = bars.get(key);
      if (known) return known;
      const points: Point[] = [];
      const shown = multi?.create(1, 0, { label, block: "-", head: "-", blocksPerSecond: "?", eventsPerSecond: "?", left: "?" });
      let lastPlain = 0;
      let lastPlainBlock: number | null = null;
      // A caller that never counts events (a status poll) gets no events/s.
      let countsEvents = false;
      const bar: CatchUpBar = {
        update({ block, head, events }) {
          const at = now();
          if (events !== undefined && events !== null) countsEvents = true;
          if (block !== null) points.push({ at, block, events: events ?? points.at(-1)?.events ?? 0 });
          while (points.length > 2 && points[1]!.at <= at - WINDOW_MS) points.shift();
          const r = ratesOf(points, head);
          if (shown) {
            const total = head === null ? 1 : Math.max(1, head - startBlock + 1);
            shown.setTotal(total);
            shown.update(block === null ? 0 : Math.min(total, Math.max(0, block - startBlock + 1)), {
              label,
              block: block ?? "-",
              head: head ?? "-",
              blocksPerSecond: rate(r.blocksPerSecond),
              eventsPerSecond: rate(r.eventsPerSecond),
              left: formatSeconds(r.secondsLeft),
            });
            return;
          }
          const atHead = block !== null && head !== null && block >= head;
          if (block === lastPlainBlock || (!atHead && at - lastPlain < plainEvery)) return;
          lastPlain = at;
          lastPlainBlock = block;
          const speed = points.length > 1 ? ` (${rate(r.blocksPerSecond)} blocks/s${countsEvents ? `, ${rate(r.eventsPerSecond)} events/s` : ""}, ETA ${formatSeconds(r.secondsLeft)})` : "";
          plainLine(`${label} block ${block ?? "(none yet)"} of ${head ?? "?"}${speed}`);
        },
      };
      bars.set(key, bar);
      return bar;
    },
    log(line) {
      if (!multi) plainLine(line);
      // No bar yet: nothing is drawn, the line goes straight out.
      else if (bars.size === 0) stream.write(`${line}\n`);
      else {
        multi.log(`${line}\n`);
        // Drawn now, not at the next frame (a node's log must not wait behind a quiet bar).
        multi.update();
      }
    },
    stop() {
      multi?.stop();
    },
  };
}
