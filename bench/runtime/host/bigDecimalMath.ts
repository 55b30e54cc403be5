// graph-node's BigDecimal on plain values: 34 significant digits, normalized (no trailing zeros).

/** value = digits * 10^exp, normalized: digits has no trailing zeros, zero is {0n, 0}. */
export interface BigDecimalValue {
  digits: bigint;
  exp: number;
}
