// Account encoding as Agave's RPC does it (solana-account-decoder's UiAccount::encode and the RPC checks
// around it), for the fixture server. Written from Agave's documented behaviour, not from its code.
import { zstdCompressSync } from "node:zlib";
import bs58 from "bs58";

export type FixtureAccount = {
  lamports: bigint;
  /** Base58 key of the owning program. */
  owner: string;
  data: Uint8Array;
  executable?: boolean;
  rentEpoch?: bigint;
  /** When set, the owner "has a parser": jsonParsed returns this instead of the base64 fallback. */
  parsed?: { program: string; parsed: unknown };
};

export type WireEncoding = "binary" | "base58" | "base64" | "base64+zstd" | "jsonParsed";

export const ENCODINGS: readonly WireEncoding[] = ["binary", "base58", "base64", "jsonParsed", "base64+zstd"];

/** Agave's MAX_BASE58_BYTES. */
export const MAX_BASE58_BYTES = 128;

export type RpcFailure = { code: number; message: string };

export class RpcFailureError extends Error {
  constructor(readonly failure: RpcFailure) {
    super(failure.message);
  }
}

export const BASE58_TOO_LARGE: RpcFailure = {
  code: -32600,
  message: `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
};

export const SLICE_WITH_JSON_PARSED: RpcFailure = {
  code: -32600,
  message: "Sliced account data can only be encoded using binary (base 58) or base64 encoding.",
};

export type DataSlice = { offset: number; length: number };

function slice(data: Uint8Array, dataSlice: DataSlice | undefined): Uint8Array {
  if (!dataSlice) return data;
  const start = Math.min(dataSlice.offset, data.length);
  return data.subarray(start, Math.min(data.length, start + dataSlice.length));
}

/** Checks that run before encoding; a failure fails the whole request (also in getMultipleAccounts). */
export function checkEncodable(account: FixtureAccount, encoding: WireEncoding, dataSlice: DataSlice | undefined): void {
  if (encoding === "jsonParsed" && dataSlice) throw new RpcFailureError(SLICE_WITH_JSON_PARSED);
  if ((encoding === "binary" || encoding === "base58") && slice(account.data, dataSlice).length > MAX_BASE58_BYTES) {
    throw new RpcFailureError(BASE58_TOO_LARGE);
  }
}

function encodeData(account: FixtureAccount, encoding: WireEncoding, dataSlice: DataSlice | undefined): unknown {
  const bytes = slice(account.data, dataSlice);
  switch (encoding) {
    case "binary":
      return bs58.encode(bytes);
    case "base58":
      return [bs58.encode(bytes), "base58"];
    case "base64":
      return [Buffer.from(bytes).toString("base64"), "base64"];
    case "base64+zstd":
      return [zstdCompressSync(bytes).toString("base64"), "base64+zstd"];
    case "jsonParsed":
      if (account.parsed) return { ...account.parsed, space: account.data.length };
      return [Buffer.from(bytes).toString("base64"), "base64"];
  }
}

/** The UiAccount record, u64 fields as bigint so they serialise exactly. */
export function encodeAccount(account: FixtureAccount, encoding: WireEncoding, dataSlice: DataSlice | undefined): Record<string, unknown> {
  checkEncodable(account, encoding, dataSlice);
  return {
    lamports: account.lamports,
    data: encodeData(account, encoding, dataSlice),
    owner: account.owner,
    executable: account.executable ?? false,
    rentEpoch: account.rentEpoch ?? 18446744073709551615n,
    space: account.data.length,
  };
}
