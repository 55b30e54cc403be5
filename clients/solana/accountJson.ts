import type { AccountInfo } from "./accountRecord.js";

/** A printable account: bytes as base64 with their length, u64 fields as decimal strings. */
export function accountToJson(account: AccountInfo | null): Record<string, unknown> | null {
  if (account === null) return null;
  const data =
    account.data instanceof Uint8Array
      ? { encoding: account.dataEncoding, length: account.data.length, base64: Buffer.from(account.data).toString("base64") }
      : { encoding: account.dataEncoding, ...account.data };
  return {
    lamports: account.lamports.toString(),
    owner: account.owner,
    executable: account.executable,
    rentEpoch: account.rentEpoch.toString(),
    space: account.space,
    data,
  };
}
