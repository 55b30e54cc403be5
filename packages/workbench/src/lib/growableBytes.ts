// A byte buffer that doubles as it fills, for encoders that write many small fields in turn (the runs
// packed for the host thread, the proof-of-indexing journal). Little-endian, as both read it back.
export class GrowableBytes {
  bytes: Uint8Array<ArrayBuffer>;
  view: DataView;
  /** Bytes written so far. */
  at = 0;

  constructor(initialSize = 4096) {
    this.bytes = new Uint8Array(initialSize);
    this.view = new DataView(this.bytes.buffer);
  }

  /** Makes room for `n` more bytes. */
  room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.at + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.at));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  /**
   * Makes room for `n` more bytes and moves past them; returns where they start. Call it before reading
   * `bytes` or `view`: growing replaces both.
   */
  reserve(n: number): number {
    this.room(n);
    const at = this.at;
    this.at += n;
    return at;
  }

  u8(v: number): void {
    const at = this.reserve(1);
    this.bytes[at] = v;
  }

  u32(v: number): void {
    const at = this.reserve(4);
    this.view.setUint32(at, v, true);
  }

  i32(v: number): void {
    const at = this.reserve(4);
    this.view.setInt32(at, v, true);
  }

  u64(v: bigint): void {
    const at = this.reserve(8);
    this.view.setBigUint64(at, v, true);
  }

  i64(v: bigint): void {
    const at = this.reserve(8);
    this.view.setBigInt64(at, v, true);
  }

  /** Bytes as they are. */
  append(b: Uint8Array): void {
    const at = this.reserve(b.length);
    this.bytes.set(b, at);
  }

  /** What was written (a view: the next write may change it). */
  written(): Uint8Array<ArrayBuffer> {
    return this.bytes.subarray(0, this.at);
  }
}
