// graph-node's proof-of-indexing hasher for specVersion >= 0.0.6 (the `stable-hash` crate's
// FastStableHasher): a field's address is a u128 built from its path, each written field is hashed
// with XXH3-128 seeded by the address's low 64 bits, and the hashes are combined by an
// order-independent mixing function modulo 2^192 (the crate's FldMix).
import { xxh3 } from "@node-rs/xxhash";
import { bigToBytesLeView, bytesToBigLe } from "./littleEndian.js";

const M64 = (1n << 64n) - 1n;
const M128 = (1n << 128n) - 1n;
const M192 = (1n << 192n) - 1n;
const u192 = (w0: bigint, w1: bigint, w2: bigint): bigint => w0 | (w1 << 64n) | (w2 << 128n);
// The crate's constants (fast/fld.rs), as little-endian 64-bit words.
const P = u192(2305843009213693959n, 2305843009213693950n, 0n);
const Q = 18446744073709551609n;
const R = 8n;
const IDENTITY = u192(16140901064495857665n, M64, M64);

export const FAST_ROOT = 17n;

/** The address of child `n` of `address`. */
export function fastChild(address: bigint, n: number | bigint): bigint {
  return (address * 486_187_739n + BigInt(n)) & M128;
}

/** The address of a path of child numbers from the root. */
export function fastAddress(children: readonly number[]): bigint {
  let a = FAST_ROOT;
  for (const c of children) a = fastChild(a, c);
  return a;
}

function mix(x: bigint, y: bigint): bigint {
  return (P + Q * (x + y) + R * x * y) & M192;
}

export class FastStableHasher {
  constructor(
    private mixer = IDENTITY,
    private count = 0n,
  ) {}

  write(address: bigint, payload: Uint8Array): void {
    const hash = xxh3.xxh128(payload, address & M64);
    const seed = (address >> 64n) & (M64 >> 1n);
    this.mixer = mix(this.mixer, u192(seed, hash & M64, hash >> 64n));
    this.count = (this.count + 1n) & M64;
  }

  mixin(other: FastStableHasher): void {
    this.mixer = mix(this.mixer, other.mixer);
    this.count = (this.count + other.count) & M64;
  }

  /** 32 bytes: the mixer (24, little-endian) and the count (8). */
  toBytes(): Uint8Array {
    const out = new Uint8Array(32);
    // Each below its field's size, so its bytes without high zeros fill the field's low end.
    out.set(bigToBytesLeView(this.mixer), 0);
    out.set(bigToBytesLeView(this.count), 24);
    return out;
  }

  static fromBytes(bytes: Uint8Array): FastStableHasher {
    return new FastStableHasher(bytesToBigLe(bytes.subarray(0, 24)), bytesToBigLe(bytes.subarray(24, 32)));
  }

  /** XXH3-128 of the mixer's bytes, seeded with the count. */
  finish(): bigint {
    return xxh3.xxh128(this.toBytes().subarray(0, 24), this.count);
  }
}
