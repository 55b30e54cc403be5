// Exact decimals for checking BigDecimal fields against chain integers: an entity's "123.45" is compared
// with a raw token amount and its decimals without floating point. A value is coefficient * 10^exponent.

export interface Decimal {
  coefficient: bigint;
  exponent: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Parses a BigDecimal as a GraphQL API returns it ("12.5", "0", "1E-7"); null when it is not one. */
export function parseDecimal(text: unknown): Decimal | null {
  if (typeof text !== "string") return null;
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const fraction = m[3] ?? "";
  const coefficient = BigInt(`${m[1]}${m[2]}${fraction}`);
  return normalize({ coefficient, exponent: Number(m[4] ?? 0) - fraction.length });
}

/** A raw integer amount of a token with `decimals` decimals. */
export function fromRaw(raw: bigint, decimals: number): Decimal {
  return normalize({ coefficient: raw, exponent: -decimals });
}

function normalize(d: Decimal): Decimal {
  if (d.coefficient === 0n) return { coefficient: 0n, exponent: 0 };
  let { coefficient, exponent } = d;
  while (coefficient % 10n === 0n) {
    coefficient /= 10n;
    exponent++;
  }
  return { coefficient, exponent };
}

export function decimalEquals(a: Decimal, b: Decimal): boolean {
  const x = normalize(a);
  const y = normalize(b);
  return x.coefficient === y.coefficient && x.exponent === y.exponent;
}

export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const exponent = Math.min(a.exponent, b.exponent);
  return normalize({ coefficient: a.coefficient * 10n ** BigInt(a.exponent - exponent) + b.coefficient * 10n ** BigInt(b.exponent - exponent), exponent });
}

/** Plain notation, for messages: "-0.0012", "1500". */
export function formatDecimal(d: Decimal): string {
  const n = normalize(d);
  const negative = n.coefficient < 0n;
  const digits = (negative ? -n.coefficient : n.coefficient).toString();
  let text: string;
  if (n.exponent >= 0) text = digits + "0".repeat(n.exponent);
  else {
    const padded = digits.padStart(-n.exponent + 1, "0");
    text = `${padded.slice(0, padded.length + n.exponent)}.${padded.slice(padded.length + n.exponent)}`;
  }
  return negative ? `-${text}` : text;
}

/** num/den as a fraction of integers. */
function toFraction(d: Decimal): { num: bigint; den: bigint } {
  return d.exponent >= 0 ? { num: d.coefficient * 10n ** BigInt(d.exponent), den: 1n } : { num: d.coefficient, den: 10n ** BigInt(-d.exponent) };
}

/**
 * Whether `value` equals the fraction num/den to `digits` significant digits (BigDecimal division keeps
 * 34): |value - num/den| <= |num/den| * 10^-digits. A zero fraction must be matched exactly.
 */
export function closeToFraction(value: Decimal, num: bigint, den: bigint, digits: number): boolean {
  if (den === 0n) throw new RangeError("zero denominator");
  const v = toFraction(value);
  const gap = abs(v.num * den - num * v.den);
  return gap * 10n ** BigInt(digits) <= abs(num * v.den);
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}
