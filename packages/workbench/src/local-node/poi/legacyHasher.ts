// graph-node's legacy proof-of-indexing hasher (the `stable-hash` crate's "old" branch, used for
// specVersion < 0.0.6): every field is a "cell" named by its path of child numbers. A cell hashes to
// 2048 bits of BLAKE3 output over (path, 0, payload), and the cells are combined by multiplication
// modulo a 2049-bit prime, so the order of the writes does not matter.
import { createBLAKE3 } from "hash-wasm";
import { pushUleb128 } from "../../lib/leb128.js";
import { bigToBytesLe, bigToBytesLeView, bytesToBigLe } from "./littleEndian.js";

/** The crate's modulus (set_hasher.rs). */
const P = BigInt(
  "50763434429823703141085322590076158163032399096130816327134180611270739679038131809123861970975131471260684737408234060876742190838745219274061025048845231234136148410311444604554192918702297959809128216170781389312847013812749872750274650041183009144583521632294518996531883338553737214586176414455965584933129379474747808392433032576309945590584603359054260866543918929486383805924215982747035136255123252119828736134723149397165643360162699752374292974151421555939481822911026769138419707577501643119472226283015793622652706604535623136902831581637275314074553942039263472515423713366344495524733341031029964603383",
);
const CELL_BITS = 2048;
// BLAKE3 in WebAssembly, about five times faster than in JavaScript here (a cell is hashed for every field).
const cellHash = await createBLAKE3(CELL_BITS);
const digestHash = await createBLAKE3(256);

let cellInput = new Uint8Array(256);

function blake3(input: Uint8Array, hasher: typeof cellHash): Uint8Array {
  hasher.init();
  hasher.update(input);
  return hasher.digest("binary");
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
    const path = this.path.slice();
    pushUleb128(path, this.child++);
    return new LegacySeq(path, 1);
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

/** SetHasher: the product of the cells written, modulo P. */
export class LegacySetHasher {
  constructor(public value = 1n) {}

  write(seq: LegacySeq, payload: Uint8Array): void {
    // One input buffer for every cell (hash-wasm copies what it is given).
    const length = seq.path.length + 1 + payload.length;
    if (cellInput.length < length) cellInput = new Uint8Array(2 * length);
    cellInput.set(seq.path, 0);
    cellInput[seq.path.length] = 0;
    cellInput.set(payload, seq.path.length + 1);
    this.mixin(bytesToBigLe(blake3(cellInput.subarray(0, length), cellHash)));
  }

  /** `finish_unordered`: another set's cells joined to these. */
  mixin(digits: bigint): void {
    // A fresh hasher (1) takes the value as it is: a 2048-bit cell, or a value already below P.
    this.value = this.value === 1n ? digits % P : (this.value * digits) % P;
  }

  toBytes(): Uint8Array {
    return bigToBytesLe(this.value);
  }

  static fromBytes(bytes: Uint8Array): LegacySetHasher {
    return new LegacySetHasher(bytesToBigLe(bytes));
  }

  /** The 32-byte digest: BLAKE3 of the value's little-endian bytes. */
  finish(): Uint8Array {
    return blake3(bigToBytesLeView(this.value), digestHash);
  }
}
