// graph-node's legacy proof-of-indexing hasher (the `stable-hash` crate's "old" branch, used for
// specVersion < 0.0.6): every field is a "cell" named by its path of child numbers. A cell hashes to
// 2048 bits of BLAKE3 output over (path, 0, payload), and the cells are combined by multiplication
// modulo a 2049-bit prime, so the order of the writes does not matter.
import { blake3 } from "@noble/hashes/blake3.js";

/** The crate's modulus (set_hasher.rs). */
const P = BigInt(
  "50763434429823703141085322590076158163032399096130816327134180611270739679038131809123861970975131471260684737408234060876742190838745219274061025048845231234136148410311444604554192918702297959809128216170781389312847013812749872750274650041183009144583521632294518996531883338553737214586176414455965584933129379474747808392433032576309945590584603359054260866543918929486383805924215982747035136255123252119828736134723149397165643360162699752374292974151421555939481822911026769138419707577501643119472226283015793622652706604535623136902831581637275314074553942039263472515423713366344495524733341031029964603383",
);
const CELL_BYTES = 256;

/** Unsigned LEB128, as the crate writes a child number into the path. */
function leb128(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

/**
 * Blake3SeqNo: the path bytes so far, and the number the next child gets (children count from 1, as
 * 0 marks the start of the payload). `nextChild` and `skip` move this node's counter, as in the crate.
 */
export class LegacySeq {
  private constructor(
    readonly path: readonly number[],
    private child: number,
  ) {}
  static root(): LegacySeq {
    return new LegacySeq([], 1);
  }
  nextChild(): LegacySeq {
    const c = this.child++;
    return new LegacySeq([...this.path, ...leb128(c)], 1);
  }
  skip(count: number): void {
    this.child += count;
  }
  /** The crate's traverse_seq_no: straight to field `i` of each nested level. */
  static at(children: readonly number[]): LegacySeq {
    let s = LegacySeq.root();
    for (const i of children) {
      s.skip(i);
      s = s.nextChild();
    }
    return s;
  }
}

export function bytesToBigLe(bytes: Uint8Array): bigint {
  let hex = "";
  for (let i = bytes.length - 1; i >= 0; i--) hex += bytes[i]!.toString(16).padStart(2, "0");
  return hex === "" ? 0n : BigInt(`0x${hex}`);
}

/** Little-endian bytes without high zero bytes (ibig's `to_le_bytes`; zero is empty). */
export function bigToBytesLe(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array(0);
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(hex.length - 2 * (i + 1), hex.length - 2 * i), 16);
  return out;
}

/** SetHasher: the product of the cells written, modulo P. */
export class LegacySetHasher {
  constructor(public value = 1n) {}

  write(seq: LegacySeq, payload: Uint8Array): void {
    const input = new Uint8Array(seq.path.length + 1 + payload.length);
    input.set(seq.path, 0);
    input.set(payload, seq.path.length + 1);
    this.mixin(bytesToBigLe(blake3(input, { dkLen: CELL_BYTES })));
  }

  /** `finish_unordered`: another set's cells joined to these. */
  mixin(digits: bigint): void {
    this.value = (this.value * digits) % P;
  }

  toBytes(): Uint8Array {
    return bigToBytesLe(this.value);
  }

  static fromBytes(bytes: Uint8Array): LegacySetHasher {
    return new LegacySetHasher(bytesToBigLe(bytes));
  }

  /** The 32-byte digest: BLAKE3 of the value's little-endian bytes. */
  finish(): Uint8Array {
    return blake3(this.toBytes());
  }
}
