// eth_getLogs answers read straight from their text. JSON.parse made an object and eight strings per log,
// the log parser lowercased copies of them, and the decoder sliced them again: the committing thread's
// largest allocations. Here each log is a row of numbers (offsets of its hex fields in the answer, its
// block number and indexes), and strings are made only when asked for. The answer stays a string on
// V8's heap, where its collections account for it (its bytes as an ArrayBuffer lived outside the heap
// until a full collection: 50 MiB more at the peak). An answer of any other shape (an error, a pending
// log's nulls, an escape in a string, uppercase hex, an odd field) is not read here: the caller parses
// it as JSON, so every answer still gets the same checks.
import type { ChainLog } from "./blocks.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Hex digits of each fixed-size field. */
const ADDRESS_DIGITS = 40;
const HASH_DIGITS = 64;
/** Quantities above this many hex digits would not be exact as numbers. */
const MAX_QUANTITY_DIGITS = 13;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

const KEYS = ["address", "topics", "data", "blockNumber", "blockHash", "transactionHash", "transactionIndex", "logIndex", "removed"];
const TOP_KEYS = ["result", "error"];
/** Every field but `removed` must be present. */
const REQUIRED = (1 << 8) - 1;
/** A hex string with its quotes; lowercase only (uppercase sends the answer to the JSON path, which lowercases). */
const HEX_STRING = /"0x[0-9a-f]*"/y;
const SCALAR = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;

/** A log answer as columns: row `i` is the i-th log, hex fields as offsets of their first digit (after `0x`). */
export class LogTable {
  count = 0;
  readonly address: number[] = [];
  /** Four per row; -1 past `topicCount`. */
  readonly topics: number[] = [];
  readonly topicCount: number[] = [];
  readonly data: number[] = [];
  /** Hex digits of `data` (even). */
  readonly dataDigits: number[] = [];
  readonly blockHash: number[] = [];
  readonly transactionHash: number[] = [];
  readonly blockNumber: number[] = [];
  readonly transactionIndex: number[] = [];
  readonly logIndex: number[] = [];
  readonly removed: boolean[] = [];
  // The string made last for each field: neighbouring logs usually share a block, a transaction, an address.
  private readonly lastAt = [-1, -1, -1, -1];
  private readonly lastText = ["", "", "", ""];

  constructor(readonly text: string) {}

  /** `0x` and the digits at `at`. */
  hex(at: number, digits: number): string {
    return this.text.slice(at - 2, at + digits);
  }

  /** As `hex`, reusing the string made last for `slot` when its digits are the same. */
  private sharedHex(slot: number, at: number, digits: number): string {
    const last = this.lastAt[slot]!;
    if (last >= 0 && this.sameDigits(last, at, digits)) return this.lastText[slot]!;
    const s = this.hex(at, digits);
    this.lastAt[slot] = at;
    this.lastText[slot] = s;
    return s;
  }

  private sameDigits(a: number, b: number, digits: number): boolean {
    if (a === b) return true;
    const text = this.text;
    for (let i = 0; i < digits; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
    return true;
  }

  addressOf(row: number): string {
    return this.sharedHex(0, this.address[row]!, ADDRESS_DIGITS);
  }
  topic0Of(row: number): string | undefined {
    return this.topicCount[row]! === 0 ? undefined : this.sharedHex(1, this.topics[4 * row]!, HASH_DIGITS);
  }
  blockHashOf(row: number): string {
    return this.sharedHex(2, this.blockHash[row]!, HASH_DIGITS);
  }
  transactionHashOf(row: number): string {
    return this.sharedHex(3, this.transactionHash[row]!, HASH_DIGITS);
  }
}

/** One row of a LogTable as a ChainLog: fields are read from the answer when asked for. */
export class TableLog implements ChainLog {
  constructor(
    readonly table: LogTable,
    readonly row: number,
  ) {}
  get address(): string {
    return this.table.addressOf(this.row);
  }
  get topics(): string[] {
    const t = this.table;
    const out: string[] = [];
    for (let k = 0; k < t.topicCount[this.row]!; k++) out.push(t.hex(t.topics[4 * this.row + k]!, HASH_DIGITS));
    return out;
  }
  get data(): string {
    return this.table.hex(this.table.data[this.row]!, this.table.dataDigits[this.row]!);
  }
  get blockNumber(): number {
    return this.table.blockNumber[this.row]!;
  }
  get blockHash(): string {
    return this.table.blockHashOf(this.row);
  }
  get transactionHash(): string {
    return this.table.transactionHashOf(this.row);
  }
  get transactionIndex(): number {
    return this.table.transactionIndex[this.row]!;
  }
  get logIndex(): number {
    return this.table.logIndex[this.row]!;
  }
  get removed(): boolean {
    return this.table.removed[this.row]!;
  }
}

/** Thrown inside the reader for any shape it does not take; never leaves this module. */
const NOT_TAKEN = Symbol("not taken");

/**
 * The logs of a JSON-RPC answer to eth_getLogs (`{"jsonrpc", "id", "result": [...]}`), read in place;
 * undefined for an answer of any other shape.
 */
export function readLogsAnswer(text: string): TableLog[] | undefined {
  try {
    return new AnswerReader(text).answer();
  } catch (err) {
    if (err === NOT_TAKEN) return undefined;
    throw err;
  }
}

class AnswerReader {
  at = 0;
  private readonly table: LogTable;
  /** Digits of the last hex string read. */
  private digits = 0;

  constructor(private readonly s: string) {
    this.table = new LogTable(s);
  }

  private c(i: number): number {
    return this.s.charCodeAt(i);
  }

  answer(): TableLog[] {
    let logs: TableLog[] | null = null;
    this.expect(0x7b);
    if (this.peekIs(0x7d)) this.at++;
    else {
      do {
        const key = this.key(TOP_KEYS);
        if (key === 1) throw NOT_TAKEN; // an error answer: the JSON path raises it
        if (key === 0) logs = this.logs();
        else this.skipValue(0);
      } while (this.nextMember(0x7d));
    }
    this.space();
    if (this.at !== this.s.length || logs === null) throw NOT_TAKEN;
    return logs;
  }

  private logs(): TableLog[] {
    const out: TableLog[] = [];
    this.expect(0x5b);
    if (this.peekIs(0x5d)) {
      this.at++;
      return out;
    }
    do out.push(new TableLog(this.table, this.log()));
    while (this.nextMember(0x5d));
    return out;
  }

  /** One log object into the next row; returns the row. */
  private log(): number {
    const t = this.table;
    const row = t.count;
    let seen = 0;
    let removed = false;
    this.expect(0x7b);
    if (this.peekIs(0x7d)) throw NOT_TAKEN;
    // Fields may come in any order: each column gets its row's value once all are read.
    let address = 0;
    let data = 0;
    let dataDigits = 0;
    let blockNumber = 0;
    let blockHash = 0;
    let transactionHash = 0;
    let transactionIndex = 0;
    let logIndex = 0;
    do {
      const key = this.key(KEYS);
      if (key >= 0 && key < 8) seen |= 1 << key;
      switch (key) {
        case 0:
          address = this.hexString(ADDRESS_DIGITS);
          break;
        case 1:
          this.topicList();
          break;
        case 2:
          data = this.hexString(-1);
          dataDigits = this.digits;
          if (dataDigits % 2 !== 0) throw NOT_TAKEN;
          break;
        case 3:
          blockNumber = this.quantity();
          break;
        case 4:
          blockHash = this.hexString(HASH_DIGITS);
          break;
        case 5:
          transactionHash = this.hexString(HASH_DIGITS);
          break;
        case 6:
          transactionIndex = this.quantity();
          break;
        case 7:
          logIndex = this.quantity();
          break;
        case 8:
          removed = this.bool();
          break;
        default:
          this.skipValue(0);
      }
    } while (this.nextMember(0x7d));
    if (seen !== REQUIRED) throw NOT_TAKEN;
    t.address.push(address);
    t.topics.push(this.topic[0]!, this.topic[1]!, this.topic[2]!, this.topic[3]!);
    t.topicCount.push(this.topicCount);
    t.data.push(data);
    t.dataDigits.push(dataDigits);
    t.blockNumber.push(blockNumber);
    t.blockHash.push(blockHash);
    t.transactionHash.push(transactionHash);
    t.transactionIndex.push(transactionIndex);
    t.logIndex.push(logIndex);
    t.removed.push(removed);
    t.count++;
    return row;
  }

  private readonly topic = [-1, -1, -1, -1];
  private topicCount = 0;

  private topicList(): void {
    let n = 0;
    this.expect(0x5b);
    if (this.peekIs(0x5d)) this.at++;
    else {
      do {
        if (n === 4) throw NOT_TAKEN;
        this.topic[n++] = this.hexString(HASH_DIGITS);
      } while (this.nextMember(0x5d));
    }
    this.topicCount = n;
    for (let k = n; k < 4; k++) this.topic[k] = -1;
  }

  /** A `"0x..."` string of `digits` lowercase hex digits (any number when -1); returns where its digits start. */
  private hexString(digits: number): number {
    const s = this.s;
    let at = this.at;
    if (s.charCodeAt(at) !== QUOTE) {
      this.space();
      at = this.at;
    }
    // The digits and the closing quote, matched by V8's compiled regex (a loop here was 3x slower).
    HEX_STRING.lastIndex = at;
    if (!HEX_STRING.test(s)) throw NOT_TAKEN;
    const end = HEX_STRING.lastIndex;
    this.digits = end - at - 4;
    if (digits >= 0 && this.digits !== digits) throw NOT_TAKEN;
    this.at = end;
    return at + 3;
  }

  /** A hex quantity string (`"0x1a"`) as a number. */
  private quantity(): number {
    const start = this.hexString(-1);
    const n = this.digits;
    if (n === 0 || n > MAX_QUANTITY_DIGITS) throw NOT_TAKEN;
    return Number.parseInt(this.s.slice(start, start + n), 16);
  }

  private bool(): boolean {
    this.space();
    if (this.s.startsWith("true", this.at)) {
      this.at += 4;
      return true;
    }
    if (this.s.startsWith("false", this.at)) {
      this.at += 5;
      return false;
    }
    throw NOT_TAKEN;
  }

  /** A member's key followed by its colon: its index in `keys`, or -1 for another key. */
  private key(keys: readonly string[]): number {
    const s = this.s;
    if (s.charCodeAt(this.at) !== QUOTE) this.space();
    if (s.charCodeAt(this.at) !== QUOTE) throw NOT_TAKEN;
    const start = this.at + 1;
    const end = s.indexOf('"', start);
    // An escaped quote would end the key early: such answers take the JSON path.
    if (end < 0 || s.charCodeAt(end - 1) === BACKSLASH) throw NOT_TAKEN;
    this.at = end + 1;
    if (s.charCodeAt(this.at) === 0x3a) this.at++;
    else this.expect(0x3a);
    const len = end - start;
    for (let k = 0; k < keys.length; k++) if (keys[k]!.length === len && s.startsWith(keys[k]!, start)) return k;
    return -1;
  }

  /** After a member: true at a comma (another follows), false at `close` (consumed). */
  private nextMember(close: number): boolean {
    this.space();
    const c = this.c(this.at++);
    if (c === 0x2c) return true;
    if (c === close) return false;
    throw NOT_TAKEN;
  }

  /** Any JSON value, unread (fields a log may carry beyond the ones read, such as `blockTimestamp`). */
  private skipValue(depth: number): void {
    if (depth > 64) throw NOT_TAKEN;
    this.space();
    const c = this.c(this.at);
    if (c === QUOTE) {
      let i = this.at + 1;
      for (;;) {
        const d = this.c(i);
        if (d === QUOTE) break;
        // JSON.parse refuses raw control characters (and NaN is the end): the JSON path then says why.
        if (!(d >= 0x20)) throw NOT_TAKEN;
        i += d === BACKSLASH ? 2 : 1;
      }
      this.at = i + 1;
      return;
    }
    if (c === 0x7b || c === 0x5b) {
      const close = c + 2;
      this.at++;
      if (this.peekIs(close)) {
        this.at++;
        return;
      }
      do {
        if (c === 0x7b) this.key([]);
        this.skipValue(depth + 1);
      } while (this.nextMember(close));
      return;
    }
    // A number or a literal: up to the next delimiter, and checked.
    const start = this.at;
    for (;;) {
      const d = this.c(this.at);
      if (!(d === d) || isSpace(d) || d === 0x2c || d === 0x7d || d === 0x5d) break;
      this.at++;
    }
    if (!SCALAR.test(this.s.slice(start, this.at))) throw NOT_TAKEN;
  }

  private space(): void {
    while (isSpace(this.c(this.at))) this.at++;
  }

  private peekIs(c: number): boolean {
    this.space();
    return this.c(this.at) === c;
  }

  private expect(c: number): void {
    this.space();
    if (this.c(this.at) !== c) throw NOT_TAKEN;
    this.at++;
  }
}
