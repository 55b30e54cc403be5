import { StorageRangeParamsError } from "./errors.js";

const MAX_SLOT = (1n << 256n) - 1n;
// What Python's int(x, 16) takes: optional 0x, digits with single underscores between them.
const HEX_INTEGER = /^\s*(0[xX])?([0-9a-fA-F](?:_?[0-9a-fA-F])*)\s*$/;

/** The integer value of a start key (`0x`-prefixed or bare hex, or an integer). */
export function parseStartKey(startKey: string | bigint | number): bigint {
  let value: bigint;
  if (typeof startKey === "bigint") value = startKey;
  else if (typeof startKey === "number") {
    if (!Number.isSafeInteger(startKey)) throw new StorageRangeParamsError(`invalid start key: ${startKey}`);
    value = BigInt(startKey);
  } else {
    const match = HEX_INTEGER.exec(startKey);
    if (!match) throw new StorageRangeParamsError(`invalid literal for int() with base 16: '${startKey}'`);
    value = BigInt(`0x${match[2]!.replaceAll("_", "")}`);
  }
  if (value < 0n || value > MAX_SLOT) throw new StorageRangeParamsError(`start key out of range: ${startKey}`);
  return value;
}

/** A slot index as the emulation's map key: lower-case hex, no leading zeros (`0x0`, `0xb`). */
export function slotKey(slot: bigint): string {
  return `0x${slot.toString(16)}`;
}

/** A storage value as 32-byte lower-case hex; undefined when the node's answer is not hex. */
export function normalizeWord(value: unknown): string | undefined {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{0,64}$/.test(value)) return undefined;
  return `0x${value.slice(2).toLowerCase().padStart(64, "0")}`;
}

export const ZERO_WORD = `0x${"0".repeat(64)}`;
