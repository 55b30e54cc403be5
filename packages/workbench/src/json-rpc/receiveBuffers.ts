// Buffers that answers are read into, kept between answers. An answer read into a new buffer lands in
// freshly mapped memory (megabytes for an eth_getLogs range), and the page faults that fill it cost
// as much as the copy; a kept buffer is already resident. Let go after a quiet while, so that an idle
// process holds none.

/** At most this many are kept: about as many answers as a client reads at once. */
const KEPT = 4;
const RELEASE_AFTER_MS = 2_000;
const MIN_SIZE = 64 * 1024;

/** Smallest first. */
const spare: Buffer[] = [];
let releaseTimer: ReturnType<typeof setTimeout> | null = null;

/** A buffer of at least `size` bytes, kept or new; give it back when its content has been read. */
export function takeReceiveBuffer(size: number): Buffer {
  // Kept smallest first: the first that fits is the smallest that does.
  const fits = spare.findIndex((b) => b.length >= size);
  if (fits >= 0) return spare.splice(fits, 1)[0]!;
  return Buffer.allocUnsafe(Math.max(size, MIN_SIZE));
}

export function giveBackReceiveBuffer(buffer: Buffer): void {
  const larger = spare.findIndex((b) => b.length > buffer.length);
  spare.splice(larger < 0 ? spare.length : larger, 0, buffer);
  // The smallest goes: the large ones are the ones worth keeping.
  if (spare.length > KEPT) spare.shift();
  if (releaseTimer) releaseTimer.refresh();
  else
    releaseTimer = setTimeout(() => {
      spare.length = 0;
      releaseTimer = null;
    }, RELEASE_AFTER_MS).unref();
}

/** How many bytes the kept buffers hold (for tests). */
export function keptReceiveBytes(): number {
  return spare.reduce((n, b) => n + b.length, 0);
}
