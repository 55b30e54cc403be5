// A run's blocks as they travel to the host worker: event triggers packed into one transferred buffer,
// unpacked one at a time just before their handler runs. Cloned as objects, a run's events all arrived
// at once and lived until its last handler, so the worker's scavenges copied every one of them twice
// (about 1.2 KB an event); unpacked on demand they die young. Blocks and transactions, which events
// share, travel once per run as objects (the worker writes each into the mapping once by identity).
// What the packing does not cover (other trigger kinds, receipts, malformed hex) travels as it was.
// The range loader packs an event's address and values as it matches the log (EventValuePacker): while a
// range waits for its turn, its events are bytes, not objects (a range's logs lived long enough to be
// promoted, about 1 KB an event), and a run copies those bytes as they are.
import { nibble, type EthereumBlockInput, type EthereumTransactionInput, type EthereumValue, type EventParamInput } from "../../wasm-host/index.js";
import type { BlockJob, LoadedEventTrigger, PackedRun, RunBlock, Trigger } from "./hostProtocol.js";
import { GrowableBytes } from "../../lib/growableBytes.js";

const OTHER = 0;
const EVENT = 1;
const NO_STRING = 0xffffffff;

// Value tags: one byte per EthereumValue (bytes-like kinds carry their kind in the tag).
const KINDS = ["address", "fixedBytes", "bytes", "function", "int", "uint", "bool", "string", "fixedArray", "array", "tuple"] as const;
type Kind = (typeof KINDS)[number];
const TAG = new Map<string, number>(KINDS.map((k, i) => [k, i]));

const MAX_WORD = 0xffffffffffffffffn;

class Writer extends GrowableBytes {
  constructor(initialSize = 1 << 16) {
    super(initialSize);
  }
  /** A byte string given as bytes or as 0x hex; false (nothing written) for a string that is not 0x hex. */
  byteString(v: string | Uint8Array): boolean {
    if (typeof v !== "string") {
      this.u32(v.length);
      this.append(v);
      return true;
    }
    const n = (v.length - 2) >>> 1;
    if (v.length % 2 !== 0 || v.charCodeAt(0) !== 48 || v.charCodeAt(1) !== 120) return false;
    this.room(4 + n);
    // By hand: a Buffer per value (Node's hex write) cost more than the loop, a few times per event.
    const out = this.bytes;
    const at = this.at + 4;
    for (let i = 0; i < n; i++) {
      const hi = nibble(v.charCodeAt(2 + 2 * i));
      const lo = nibble(v.charCodeAt(3 + 2 * i));
      if ((hi | lo) < 0) return false;
      out[at + i] = (hi << 4) | lo;
    }
    this.u32(n);
    this.at += n;
    return true;
  }
  /** Any JS string, exactly (UTF-16 code units). */
  text(v: string): void {
    this.u32(v.length);
    const at = this.reserve(2 * v.length);
    for (let i = 0; i < v.length; i++) this.view.setUint16(at + 2 * i, v.charCodeAt(i), true);
  }
  /** A bigint as a sign byte and its magnitude in 64-bit words, most significant first. */
  big(v: bigint): void {
    if (v >= 0n && v <= MAX_WORD) {
      this.u8(1);
      this.u64(v);
      return;
    }
    const negative = v < 0n;
    let m = negative ? -v : v;
    const words: bigint[] = [];
    do {
      words.push(m & MAX_WORD);
      m >>= 64n;
    } while (m > 0n);
    this.u8((negative ? 0x80 : 0) | words.length);
    for (let i = words.length - 1; i >= 0; i--) this.u64(words[i]!);
  }
}

/** Writes a value; false when it cannot be packed exactly (the caller keeps its trigger as an object). */
function writeValue(w: Writer, v: EthereumValue): boolean {
  const tag = TAG.get(v.kind);
  if (tag === undefined) return false;
  w.u8(tag);
  switch (v.kind) {
    case "address":
    case "fixedBytes":
    case "bytes":
    case "function":
      return w.byteString(v.value);
    case "int":
    case "uint":
      return typeof v.value === "bigint" && (w.big(v.value), true);
    case "bool":
      return typeof v.value === "boolean" && (w.u8(v.value ? 1 : 0), true);
    case "string":
      return typeof v.value === "string" && (w.text(v.value), true);
    default:
      if (!Array.isArray(v.value)) return false;
      w.u32(v.value.length);
      return v.value.every((item) => writeValue(w, item));
  }
}

type EventTrigger = Extract<Trigger, { kind: "event" }>;

/**
 * An event record: its trigger and indexes, the parameters' names, then its body (the address and the
 * parameters' values), which the range loader packs ahead (EventValuePacker).
 */
function writeEventHead(w: Writer, head: { dataSource: number; handler: number; block: number; transaction: number; logIndex: bigint; transactionLogIndex: bigint; logType: number; receiptNull: boolean }, names: readonly string[], str: (s: string) => number): void {
  w.u8(EVENT);
  w.u32(head.dataSource);
  w.u32(head.handler);
  w.u32(head.block);
  w.u32(head.transaction);
  w.big(head.logIndex);
  w.big(head.transactionLogIndex);
  w.u32(head.logType);
  w.u8(head.receiptNull ? 1 : 0);
  w.u32(names.length);
  for (const name of names) w.u32(str(name));
}

/** An event's body; false when a field cannot be packed exactly. */
function writeEventBody(w: Writer, address: string | Uint8Array, parameters: EventParamInput[]): boolean {
  return w.byteString(address) && parameters.every((p) => writeValue(w, p.value));
}

/** Writes an event trigger; false when a field cannot be packed exactly (receipts are not packed). */
function writeEvent(w: Writer, t: EventTrigger, str: (s: string) => number, block: number, transaction: number): boolean {
  const e = t.event;
  if ((e.receipt !== undefined && e.receipt !== null) || typeof e.logIndex !== "bigint" || typeof e.transactionLogIndex !== "bigint") return false;
  const head = { dataSource: t.dataSource, handler: str(t.handler), block, transaction, logIndex: e.logIndex, transactionLogIndex: e.transactionLogIndex, logType: e.logType === null ? NO_STRING : str(e.logType), receiptNull: e.receipt === null };
  writeEventHead(w, head, e.parameters.map((p) => p.name), str);
  return writeEventBody(w, e.address, e.parameters);
}

/** Writes an event the range loader packed: its body is copied as it is. */
function writeLoadedEvent(w: Writer, t: LoadedEventTrigger, str: (s: string) => number, block: number, transaction: number): void {
  // graph-node fills transactionLogIndex with the log's block-level index too (eventBuilder.ts).
  const logIndex = BigInt(t.logIndex);
  writeEventHead(w, { dataSource: t.dataSource, handler: str(t.handler), block, transaction, logIndex, transactionLogIndex: logIndex, logType: NO_STRING, receiptNull: false }, t.names, str);
  w.append(t.packed.bytes.subarray(t.at, t.end));
}

/**
 * A range's event bodies, packed as its logs are matched. An event keeps where its body is; `bytes` is
 * final (and trimmed) once the range is loaded.
 */
export class EventValuePacker extends Writer {
  constructor() {
    super(1 << 12);
  }

  /** Packs an event's body; null (nothing written) when it cannot be packed exactly. */
  pack(address: string, parameters: EventParamInput[]): { at: number; end: number } | null {
    const at = this.at;
    if (writeEventBody(this, address, parameters)) return { at, end: this.at };
    this.at = at;
    return null;
  }

  /** The bytes at their size: the range keeps them until its last run is posted. */
  finish(): void {
    if (this.bytes.length === this.at) return;
    this.bytes = this.bytes.slice(0, this.at);
    this.view = new DataView(this.bytes.buffer);
  }
}

/** Packs a run's triggers (the caller transfers `bytes.buffer`). */
export function packRun(blocks: BlockJob[]): PackedRun {
  const w = new Writer();
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const inputs = new Map<EthereumBlockInput, number>();
  const transactions = new Map<EthereumTransactionInput, number>();
  const other: Trigger[] = [];
  const str = (s: string): number => {
    let i = stringIndex.get(s);
    if (i === undefined) stringIndex.set(s, (i = strings.push(s) - 1));
    return i;
  };
  // Events come by block and by transaction: the last one asked for is usually asked for again.
  const tableIndex = <T>(table: Map<T, number>) => {
    let last: T | undefined;
    let lastIndex = -1;
    return (v: T): number => {
      if (v === last) return lastIndex;
      let i = table.get(v);
      if (i === undefined) table.set(v, (i = table.size));
      last = v;
      return (lastIndex = i);
    };
  };
  const blockIndex = tableIndex(inputs);
  const transactionIndex = tableIndex(transactions);
  const packed = blocks.map((job) => {
    const at = w.at;
    for (const t of job.triggers) {
      if (t.kind === "loadedEvent") {
        writeLoadedEvent(w, t, str, blockIndex(t.block), transactionIndex(t.transaction));
        continue;
      }
      const start = w.at;
      if (t.kind === "event" && writeEvent(w, t, str, blockIndex(t.event.block), transactionIndex(t.event.transaction))) continue;
      // Not packed: its record only names it (what was written of it is dropped).
      w.at = start;
      w.u8(OTHER);
      w.u32(other.push(t) - 1);
    }
    return { ptr: job.ptr, at, count: job.triggers.length };
  });
  return { blocks: packed, bytes: w.written(), strings, inputs: [...inputs.keys()], transactions: [...transactions.keys()], other };
}

class Reader {
  readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u8(): number {
    return this.bytes[this.at++]!;
  }
  u32(): number {
    const v = this.view.getUint32(this.at, true);
    this.at += 4;
    return v;
  }
  /** A view into the run's buffer: no copy (the host copies it into the mapping). */
  byteString(): Uint8Array {
    const n = this.u32();
    const v = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }
  text(): string {
    const units = new Uint16Array(this.u32());
    for (let i = 0; i < units.length; i++) units[i] = this.view.getUint16(this.at + 2 * i, true);
    this.at += 2 * units.length;
    let s = "";
    // In slices: a call takes a bounded number of arguments.
    for (let i = 0; i < units.length; i += 8192) s += String.fromCharCode(...units.subarray(i, i + 8192));
    return s;
  }
  big(): bigint {
    const head = this.u8();
    let v = this.view.getBigUint64(this.at, true);
    for (let i = 1; i < (head & 0x7f); i++) v = (v << 64n) | this.view.getBigUint64(this.at + 8 * i, true);
    this.at += 8 * (head & 0x7f);
    return head & 0x80 ? -v : v;
  }
}

function readValue(r: Reader): EthereumValue {
  const kind: Kind = KINDS[r.u8()]!;
  switch (kind) {
    case "address":
    case "fixedBytes":
    case "bytes":
    case "function":
      return { kind, value: r.byteString() };
    case "int":
    case "uint":
      return { kind, value: r.big() };
    case "bool":
      return { kind, value: r.u8() === 1 };
    case "string":
      return { kind, value: r.text() };
    default: {
      const value: EthereumValue[] = new Array(r.u32());
      for (let i = 0; i < value.length; i++) value[i] = readValue(r);
      return { kind, value };
    }
  }
}

function readTrigger(run: PackedRun, r: Reader): Trigger {
  if (r.u8() === OTHER) return run.other[r.u32()]!;
  const dataSource = r.u32();
  const handler = run.strings[r.u32()]!;
  const block = run.inputs[r.u32()]!;
  const transaction = run.transactions[r.u32()]!;
  const logIndex = r.big();
  const transactionLogIndex = r.big();
  const logTypeIndex = r.u32();
  const receiptNull = r.u8() === 1;
  const names: string[] = new Array(r.u32());
  for (let i = 0; i < names.length; i++) names[i] = run.strings[r.u32()]!;
  const { address, parameters } = readEventBody(r, names);
  const event = { address, logIndex, transactionLogIndex, logType: logTypeIndex === NO_STRING ? null : run.strings[logTypeIndex]!, block, transaction, parameters };
  return { kind: "event", dataSource, handler, event: receiptNull ? { ...event, receipt: null } : event };
}

function readEventBody(r: Reader, names: readonly string[]): { address: Uint8Array; parameters: EventParamInput[] } {
  const address = r.byteString();
  const parameters: EventParamInput[] = new Array(names.length);
  for (let i = 0; i < names.length; i++) parameters[i] = { name: names[i]!, value: readValue(r) };
  return { address, parameters };
}

/** A loaded event as an object trigger (the triggers of data sources created mid-run, sent as objects). */
export function unpackLoadedEvent(t: LoadedEventTrigger): Trigger {
  // Its own bytes: the values' views then share a buffer of this event alone, not the range's.
  const { address, parameters } = readEventBody(new Reader(t.packed.bytes.slice(t.at, t.end), 0), t.names);
  const logIndex = BigInt(t.logIndex);
  return { kind: "event", dataSource: t.dataSource, handler: t.handler, event: { address, logIndex, transactionLogIndex: logIndex, logType: null, block: t.block, transaction: t.transaction, parameters } };
}

/** The run's blocks; each block's triggers are read from the buffer as they are iterated. */
export function unpackRun(run: PackedRun): RunBlock[] {
  return run.blocks.map(({ ptr, at, count }) => ({
    ptr,
    triggers: {
      *[Symbol.iterator]() {
        const r = new Reader(run.bytes, at);
        for (let i = 0; i < count; i++) yield readTrigger(run, r);
      },
    },
  }));
}
