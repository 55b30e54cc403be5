// JSON.parse that keeps integers above 2^53 exact (Solana's u64 lamports and rentEpoch reach 2^64 - 1).
// Node 22 passes the source text of each primitive to the reviver, so only unsafe integers become bigint.

type ReviverContext = { source?: string };

const INTEGER = /^-?\d+$/;

function reviver(this: unknown, _key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value === "number" && !Number.isSafeInteger(value) && context?.source && INTEGER.test(context.source)) {
    return BigInt(context.source);
  }
  return value;
}

/** A JSON number token of 16 or more digits: the only kind that can exceed 2^53. */
const LONG_NUMBER = /[:[,]\s*-?\d{16,}/;

export function parseJson(text: string): unknown {
  // A reviver slows every parse several times; large Ethereum answers (logs, blocks) carry hex strings only.
  if (!LONG_NUMBER.test(text)) return JSON.parse(text);
  return JSON.parse(text, reviver as (this: unknown, key: string, value: unknown) => unknown);
}
