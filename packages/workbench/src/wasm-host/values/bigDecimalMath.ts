// graph-node's BigDecimal on plain values (graph/src/data/store/scalar/bigdecimal.rs over the
// `bigdecimal` 0.1.2 crate): every result is normalized to 34 significant digits, rounded the way that
// crate rounds (see `withPrecision`), without trailing zeros. Division first runs to 100 digits.

/** value = digits * 10^exp, normalized: digits has no trailing zeros, zero is {0n, 0}. */
export interface BigDecimalValue {
  digits: bigint;
  exp: number;
}

export const MAX_SIGNIFICANT_DIGITS = 34;
export const MIN_EXP = -6143;
export const MAX_EXP = 6144;
const DIVISION_PRECISION = 100;

const ZERO: BigDecimalValue = { digits: 0n, exp: 0 };

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

/** Decimal digits of |v| (1 for zero). */
export function countDigits(v: bigint): number {
  return v === 0n ? 1 : abs(v).toString().length;
}

/** 1 when the leading decimal digit of a positive `r` is >= 5 (the crate's `get_rounding_term`). */
function roundingTerm(r: bigint): bigint {
  if (r === 0n) return 0n;
  if (r < 0n) return 1n; // the crate answers 1 for any negative input
  return r.toString().charCodeAt(0) >= 53 ? 1n : 0n;
}

/**
 * The crate's `with_prec(34)` on digits * 10^exp. Truncates toward zero, then rounds up the magnitude
 * only when the remainder is positive and its first dropped digit is non-zero and >= 5: so negative
 * values are truncated, never rounded (a quirk graph-node keeps for proof-of-indexing stability).
 */
function withPrecision(digits: bigint, exp: number, precision: number): BigDecimalValue {
  const n = countDigits(digits);
  if (n > precision) {
    const diff = n - precision;
    const p = pow10(diff);
    let q = digits / p; // BigInt division truncates toward zero, like num-bigint's div_rem
    const r = digits % p;
    if (p < 10n * r) q += roundingTerm(r);
    return { digits: q, exp: exp + diff };
  }
  return { digits, exp };
}

/** graph-node's `normalized()`: round to 34 significant digits, then strip trailing zeros. */
export function normalize(digits: bigint, exp: number): BigDecimalValue {
  if (digits === 0n) return ZERO;
  const rounded = withPrecision(digits, exp, MAX_SIGNIFICANT_DIGITS);
  let d = rounded.digits;
  let e = rounded.exp;
  if (d === 0n) return ZERO;
  while (d % 10n === 0n) {
    d /= 10n;
    e += 1;
  }
  return { digits: d, exp: e };
}

function align(x: BigDecimalValue, y: BigDecimalValue): [bigint, bigint, number] {
  if (x.exp === y.exp) return [x.digits, y.digits, x.exp];
  if (x.exp > y.exp) return [x.digits * pow10(x.exp - y.exp), y.digits, y.exp];
  return [x.digits, y.digits * pow10(y.exp - x.exp), x.exp];
}

export function plus(x: BigDecimalValue, y: BigDecimalValue): BigDecimalValue {
  const [a, b, e] = align(x, y);
  return normalize(a + b, e);
}

export function minus(x: BigDecimalValue, y: BigDecimalValue): BigDecimalValue {
  const [a, b, e] = align(x, y);
  return normalize(a - b, e);
}

export function times(x: BigDecimalValue, y: BigDecimalValue): BigDecimalValue {
  return normalize(x.digits * y.digits, x.exp + y.exp);
}

export function equals(x: BigDecimalValue, y: BigDecimalValue): boolean {
  const a = normalize(x.digits, x.exp);
  const b = normalize(y.digits, y.exp);
  return a.digits === b.digits && a.exp === b.exp;
}

export function isZero(x: BigDecimalValue): boolean {
  return x.digits === 0n;
}

/** The crate's `impl_division` for positive operands: long division to `maxPrecision` digits, then a rounding step. */
function divide(num: bigint, den: bigint, scale: number, maxPrecision: number): { digits: bigint; scale: number } {
  if (num === 0n) return { digits: 0n, scale: 0 };
  if (num < 0n && den < 0n) return divide(-num, -den, scale, maxPrecision);
  if (num < 0n) {
    const r = divide(-num, den, scale, maxPrecision);
    return { digits: -r.digits, scale: r.scale };
  }
  if (den < 0n) {
    const r = divide(num, -den, scale, maxPrecision);
    return { digits: -r.digits, scale: r.scale };
  }
  let s = scale;
  let n = num;
  while (n < den) {
    s += 1;
    n *= 10n;
  }
  let quotient = n / den;
  let remainder = n % den;
  if (remainder === 0n) return { digits: quotient, scale: s };
  let precision = countDigits(quotient);
  remainder *= 10n;
  while (remainder !== 0n && precision < maxPrecision) {
    quotient = quotient * 10n + remainder / den;
    remainder = (remainder % den) * 10n;
    precision += 1;
    s += 1;
  }
  if (remainder !== 0n) quotient += roundingTerm(remainder / den);
  return { digits: quotient, scale: s };
}

/** x / y. The caller checks y != 0 (graph-node's deterministic "divide by zero" error). */
export function dividedBy(x: BigDecimalValue, y: BigDecimalValue): BigDecimalValue {
  if (y.digits === 0n) throw new RangeError("Division by zero");
  // The crate works with scale = -exp.
  const scale = -x.exp - -y.exp;
  if (x.digits === 0n) return ZERO;
  if (y.digits === 1n && y.exp === 0) return normalize(x.digits, x.exp);
  if (x.digits === y.digits) return normalize(1n, -scale);
  const r = divide(x.digits, y.digits, scale, DIVISION_PRECISION);
  return normalize(r.digits, -r.scale);
}

/** The crate's Display: plain positional notation, never an exponent ("0.0001", "1000000"). */
export function toString(x: BigDecimalValue): string {
  const negative = x.digits < 0n;
  const absInt = abs(x.digits).toString();
  const scale = -x.exp;
  let body: string;
  if (scale >= absInt.length) {
    body = "0." + "0".repeat(scale - absInt.length) + absInt;
  } else if (scale <= 0) {
    body = absInt + "0".repeat(-scale);
  } else {
    body = absInt.slice(0, absInt.length - scale) + "." + absInt.slice(absInt.length - scale);
  }
  // scale == 0 with no fraction digits prints the integer only.
  if (body.endsWith(".")) body = body.slice(0, -1);
  return negative ? "-" + body : body;
}

/** The crate's FromStr (`[+-]digits[.digits][e[+-]exp]`), normalized; null when it does not parse. */
export function fromString(s: string): BigDecimalValue | null {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(s);
  if (m === null) return null;
  const sign = m[1] ?? "";
  const lead = m[2] ?? "";
  const trail = m[3] ?? "";
  if (lead === "" && trail === "") return null;
  const expPart = m[4] === undefined ? 0 : Number(m[4]);
  if (!Number.isSafeInteger(expPart)) return null;
  const digits = BigInt(sign + (lead + trail));
  return normalize(digits, expPart - trail.length);
}

export function fromBigInt(v: bigint): BigDecimalValue {
  return normalize(v, 0);
}

/** Integer value when it is one (for conversions), else null. */
export function toBigIntExact(x: BigDecimalValue): bigint | null {
  if (x.exp >= 0) return x.digits * pow10(x.exp);
  const p = pow10(-x.exp);
  return x.digits % p === 0n ? x.digits / p : null;
}
