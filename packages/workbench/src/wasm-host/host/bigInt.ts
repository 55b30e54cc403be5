// bigInt.*: graph-node's BigInt (num-bigint 0.2.6) semantics on JS bigint.
import type { HostEnv, HostFunctions } from "./env.js";
import { HostError } from "../errors.js";
import { BIGINT_MAX_BITS, bitLength } from "../values/hex.js";
import { dividedBy as decimalDividedBy, fromBigInt as decimalFromBigInt, isZero, toString as decimalToString } from "../values/bigDecimalMath.js";


export function checkBigIntSize(n: bigint): bigint {
  const bits = bitLength(n) + 1;
  if (bits > BIGINT_MAX_BITS) throw new HostError("ARITHMETIC", `BigInt is too big, total bits ${bits} (max ${BIGINT_MAX_BITS})`);
  return n;
}

/** num-bigint's `from_str` (decimal): optional sign, digits, `_` separators after the first digit. */
export function parseBigInt(s: string): bigint | null {
  const m = /^([+-]?)([0-9][0-9_]*)$/.exec(s);
  if (m === null) return null;
  return BigInt((m[1] === "-" ? "-" : "") + m[2]!.replace(/_/g, ""));
}

export function bigIntImports(env: HostEnv): HostFunctions {
  const { codec } = env;
  const binary = (op: (x: bigint, y: bigint) => bigint) => (xPtr: number, yPtr: number) =>
    codec.writeBigInt(op(codec.readBigInt(xPtr), codec.readBigInt(yPtr)));
  return {
    "bigInt.plus": binary((x, y) => x + y),
    "bigInt.minus": binary((x, y) => x - y),
    "bigInt.times": binary((x, y) => x * y),
    "bigInt.dividedBy": binary((x, y) => {
      if (y === 0n) throw new HostError("ARITHMETIC", `attempted to divide BigInt \`${x}\` by zero`);
      return x / y;
    }),
    "bigInt.mod": binary((x, y) => {
      if (y === 0n) throw new HostError("ARITHMETIC", `attempted to calculate the remainder of \`${x}\` with a divisor of zero`);
      return x % y;
    }),
    "bigInt.bitOr": binary((x, y) => x | y),
    "bigInt.bitAnd": binary((x, y) => x & y),
    "bigInt.pow": (xPtr: number, exp: number) => codec.writeBigInt(checkBigIntSize(codec.readBigInt(xPtr) ** BigInt(exp & 0xff))),
    "bigInt.leftShift": (xPtr: number, bits: number) => codec.writeBigInt(codec.readBigInt(xPtr) << BigInt(bits & 0xff)),
    // num-bigint rounds a negative right shift toward negative infinity, as JS does.
    "bigInt.rightShift": (xPtr: number, bits: number) => codec.writeBigInt(codec.readBigInt(xPtr) >> BigInt(bits & 0xff)),
    "bigInt.fromString": (ptr: number) => {
      const s = codec.readString(ptr);
      const n = parseBigInt(s);
      if (n === null) throw new HostError("CONVERSION", `string is not a BigInt: \`${s}\``);
      return codec.writeBigInt(n);
    },
    "bigInt.dividedByDecimal": (xPtr: number, yPtr: number) => {
      const x = decimalFromBigInt(codec.readBigInt(xPtr));
      const y = codec.readBigDecimal(yPtr);
      if (isZero(y)) throw new HostError("ARITHMETIC", `attempted to divide BigDecimal \`${decimalToString(x)}\` by zero`);
      return codec.writeBigDecimal(decimalDividedBy(x, y));
    },
  };
}
