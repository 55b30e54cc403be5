// The journal's byte format: a block's proof-of-indexing events written as they happen, in a layout of
// our own that the hasher reads back. Strings that every event repeats (the entity type, the field
// names) are written once per region and then referred to by number; bytes go as they are; integers
// below 2^64 as one 64-bit word. V8's serializer wrote field names and kinds again for every event and
// took about three times as long (scratch: 160-240 ms against 60 ms for 100,000 approval events).
//
// Layout (before deflate): FORMAT, version (0 legacy, 1 fast), block, region count; per region its
// name, event count and events. Lengths and counts are unsigned LEB128. Text is UTF-8: the hashers
// hash a string's UTF-8, so a lone surrogate reads back as U+FFFD and hashes as it would have.
import { StoreValueKind, type EntityData, type StoreValue } from "../../wasm-host/index.js";
import type { PoiEvent, PoiVersion } from "./events.js";
import type { BlockPoiRecord } from "./blockStream.js";
import { bigToBytesLeView, bytesToBigLe } from "./littleEndian.js";
import { GrowableBytes } from "../../lib/growableBytes.js";
import { readUleb128, writeUleb128 } from "../../lib/leb128.js";

/** The first byte of an entry in this format; V8's serializer starts with 0xFF. */
export const JOURNAL_FORMAT = 1;

const EVENT_SET = 0;
const EVENT_REMOVE = 1;
const EVENT_ERROR = 2;
/** A String value equal to its event's id (every entity's `id` field): not written twice. */
const VALUE_EVENT_ID = 0x40;
const BIG_WORD = 0;
const BIG_NEGATIVE_WORD = 1;
const BIG_BYTES = 2;
const BIG_NEGATIVE_BYTES = 3;
const WORD = 2n ** 64n;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The journal's fields on a growable buffer; `reset` keeps its memory for the next block. */
export class ByteWriter extends GrowableBytes {
  reset(): void {
    this.at = 0;
  }

  /** Unsigned LEB128 of a safe integer. */
  uint(v: number): void {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`journal: ${v} is not a count or block number`);
    this.room(8);
    this.at = writeUleb128(this.bytes, this.at, v);
  }

  text(s: string): void {
    const longest = 3 * s.length; // UTF-8 bytes per UTF-16 unit, at most
    if (longest < 0x80) {
      // The length fits one byte whatever the text.
      this.room(1 + longest);
      const { written } = utf8.encodeInto(s, this.bytes.subarray(this.at + 1));
      this.bytes[this.at] = written;
      this.at += 1 + written;
      return;
    }
    // Encoded behind room for the longest length, then moved up to the length's actual size.
    this.room(5 + longest);
    const start = this.at + 5;
    const { written } = utf8.encodeInto(s, this.bytes.subarray(start));
    this.uint(written);
    this.bytes.copyWithin(this.at, start, start + written);
    this.at += written;
  }

  /** Bytes after their length. */
  raw(b: Uint8Array): void {
    this.uint(b.length);
    this.append(b);
  }
}

/** One region's events as bytes, with the strings it has already written. */
export class RegionWriter {
  readonly out = new ByteWriter();
  private readonly strings = new Map<string, number>();
  count = 0;

  reset(): void {
    this.out.reset();
    this.strings.clear();
    this.count = 0;
  }

  private interned(s: string): void {
    const at = this.strings.get(s);
    if (at !== undefined) return this.out.uint(at + 1);
    this.strings.set(s, this.strings.size);
    this.out.uint(0);
    this.out.text(s);
  }

  set(entityType: string, id: string, data: EntityData): void {
    this.count++;
    const out = this.out;
    out.u8(EVENT_SET);
    this.interned(entityType);
    out.text(id);
    out.uint(data.size);
    for (const [name, value] of data) {
      this.interned(name);
      if (value.kind === "String" && value.value === id) out.u8(VALUE_EVENT_ID);
      else writeValue(out, value);
    }
  }

  remove(entityType: string, id: string): void {
    this.count++;
    this.out.u8(EVENT_REMOVE);
    this.interned(entityType);
    this.out.text(id);
  }

  deterministicError(redactedEvents: number): void {
    this.count++;
    this.out.u8(EVENT_ERROR);
    this.out.uint(redactedEvents);
  }

  event(e: PoiEvent): void {
    if (e.kind === "SetEntity") this.set(e.entityType, e.id, e.data);
    else if (e.kind === "RemoveEntity") this.remove(e.entityType, e.id);
    else this.deterministicError(e.redactedEvents);
  }
}

function writeValue(out: ByteWriter, v: StoreValue): void {
  out.u8(StoreValueKind[v.kind]);
  switch (v.kind) {
    case "String":
    case "BigDecimal":
      return out.text(v.value);
    case "Int":
      return out.i32(v.value);
    case "Bool":
      return out.u8(v.value ? 1 : 0);
    case "Null":
      return;
    case "Bytes":
      return out.raw(v.value);
    case "Int8":
    case "Timestamp":
      return out.i64(v.value);
    case "BigInt": {
      const negative = v.value < 0n;
      const magnitude = negative ? -v.value : v.value;
      if (magnitude < WORD) {
        out.u8(negative ? BIG_NEGATIVE_WORD : BIG_WORD);
        return out.u64(magnitude);
      }
      out.u8(negative ? BIG_NEGATIVE_BYTES : BIG_BYTES);
      return out.raw(bigToBytesLeView(magnitude));
    }
    case "Array":
      out.uint(v.value.length);
      for (const item of v.value) writeValue(out, item);
      return;
  }
}

/** The whole entry (before deflate) from its regions' writers. */
export function joinRegions(version: PoiVersion, block: number, regions: [string, RegionWriter][], into: ByteWriter): Uint8Array {
  into.reset();
  into.u8(JOURNAL_FORMAT);
  into.u8(version === "fast" ? 1 : 0);
  into.uint(block);
  into.uint(regions.length);
  for (const [name, region] of regions) {
    into.text(name);
    into.uint(region.count);
    // The events' bytes without a length: the count says where they end.
    into.append(region.out.written());
  }
  return into.written();
}

/** Reads an entry written by joinRegions; throws a RangeError on anything else. */
export function readJournalBytes(bytes: Uint8Array): { version: PoiVersion; record: BlockPoiRecord } {
  const r = new Reader(bytes);
  if (r.u8() !== JOURNAL_FORMAT) throw new RangeError("not this journal format");
  const versionByte = r.u8();
  if (versionByte > 1) throw new RangeError(`unknown proof version ${versionByte}`);
  const block = r.uint();
  const regions: BlockPoiRecord["regions"] = [];
  for (let n = r.uint(); n > 0; n--) {
    const name = r.text();
    const strings: string[] = [];
    const interned = (): string => {
      const at = r.uint();
      if (at === 0) {
        const s = r.text();
        strings.push(s);
        return s;
      }
      const s = strings[at - 1];
      if (s === undefined) throw new RangeError(`string ${at - 1} was never written`);
      return s;
    };
    const events: PoiEvent[] = [];
    for (let count = r.uint(); count > 0; count--) {
      const kind = r.u8();
      if (kind === EVENT_ERROR) {
        events.push({ kind: "DeterministicError", redactedEvents: r.uint() });
        continue;
      }
      if (kind !== EVENT_SET && kind !== EVENT_REMOVE) throw new RangeError(`unknown event kind ${kind}`);
      const entityType = interned();
      const id = r.text();
      if (kind === EVENT_REMOVE) {
        events.push({ kind: "RemoveEntity", entityType, id });
        continue;
      }
      const data: EntityData = new Map();
      for (let fields = r.uint(); fields > 0; fields--) {
        const name = interned();
        data.set(name, r.peek() === VALUE_EVENT_ID ? (r.u8(), { kind: "String", value: id }) : readValue(r));
      }
      events.push({ kind: "SetEntity", entityType, id, data });
    }
    regions.push({ name, events });
  }
  if (!r.done()) throw new RangeError("bytes after the entry's end");
  return { version: versionByte === 1 ? "fast" : "legacy", record: { block, regions } };
}

const KIND_NAMES = Object.fromEntries(Object.entries(StoreValueKind).map(([name, code]) => [code, name])) as Record<number, StoreValue["kind"]>;

function readValue(r: Reader): StoreValue {
  const code = r.u8();
  const kind = KIND_NAMES[code];
  switch (kind) {
    case "String":
    case "BigDecimal":
      return { kind, value: r.text() };
    case "Int":
      return { kind, value: r.i32() };
    case "Bool":
      return { kind, value: r.u8() !== 0 };
    case "Null":
      return { kind };
    case "Bytes":
      return { kind, value: r.raw() };
    case "Int8":
    case "Timestamp":
      return { kind, value: r.i64() };
    case "BigInt": {
      const form = r.u8();
      if (form === BIG_WORD) return { kind, value: r.u64() };
      if (form === BIG_NEGATIVE_WORD) return { kind, value: -r.u64() };
      if (form === BIG_BYTES) return { kind, value: bytesToBigLe(r.raw()) };
      if (form === BIG_NEGATIVE_BYTES) return { kind, value: -bytesToBigLe(r.raw()) };
      throw new RangeError(`unknown BigInt form ${form}`);
    }
    case "Array": {
      const items: StoreValue[] = [];
      for (let n = r.uint(); n > 0; n--) items.push(readValue(r));
      return { kind, value: items };
    }
    default:
      throw new RangeError(`unknown value kind ${code}`);
  }
}

class Reader {
  private at = 0;
  private readonly view: DataView;

  private readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    // A plain view even of a Buffer, whose `slice` would share memory instead of copying.
    this.bytes = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  done(): boolean {
    return this.at === this.bytes.length;
  }

  private take(n: number): number {
    const at = this.at;
    if (at + n > this.bytes.length) throw new RangeError("the entry ends early");
    this.at += n;
    return at;
  }

  peek(): number {
    if (this.at >= this.bytes.length) throw new RangeError("the entry ends early");
    return this.bytes[this.at]!;
  }

  u8(): number {
    return this.bytes[this.take(1)]!;
  }

  uint(): number {
    // A safe integer takes at most 8 bytes (56 bits, checked below).
    const read = readUleb128(this.bytes, this.at, 8);
    if (!read) throw new RangeError("a count that ends early or runs past 8 bytes");
    if (!Number.isSafeInteger(read.value)) throw new RangeError("a count past 2^53");
    this.at = read.next;
    return read.value;
  }

  i32(): number {
    return this.view.getInt32(this.take(4), true);
  }

  i64(): bigint {
    return this.view.getBigInt64(this.take(8), true);
  }

  u64(): bigint {
    return this.view.getBigUint64(this.take(8), true);
  }

  text(): string {
    const n = this.uint();
    const at = this.take(n);
    return fromUtf8.decode(this.bytes.subarray(at, at + n));
  }

  raw(): Uint8Array {
    const n = this.uint();
    const at = this.take(n);
    return this.bytes.slice(at, at + n);
  }
}
