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

  u8(v: number): void {
    this.room(1);
    this.bytes[this.at++] = v;
  }

  u32(v: number): void {
    this.room(4);
    this.view.setUint32(this.at, v, true);
    this.at += 4;
  }

  i32(v: number): void {
    this.room(4);
    this.view.setInt32(this.at, v, true);
    this.at += 4;
  }

  u64(v: bigint): void {
    this.room(8);
    this.view.setBigUint64(this.at, v, true);
    this.at += 8;
  }

  i64(v: bigint): void {
    this.room(8);
    this.view.setBigInt64(this.at, v, true);
    this.at += 8;
  }

  /** Bytes as they are. */
  append(b: Uint8Array): void {
    this.room(b.length);
    this.bytes.set(b, this.at);
    this.at += b.length;
  }

  /** What was written (a view: the next write may change it). */
  written(): Uint8Array<ArrayBuffer> {
    return this.bytes.subarray(0, this.at);
  }
}
