import bs58 from "bs58";
import { decompress } from "fzstd";
import { AccountDecodeError } from "./errors.js";

export type AccountEncoding = "base58" | "base64" | "base64+zstd" | "jsonParsed";

/** jsonParsed data as the node's program parser produced it. */
export type JsonParsedAccountData = { program: string; parsed: unknown; space: number };

/** Binary encodings always give bytes; jsonParsed gives parsed JSON, or bytes when no parser exists for the owner. */
export type AccountDataFor<E extends AccountEncoding | undefined> = E extends "jsonParsed"
  ? JsonParsedAccountData | Uint8Array
  : Uint8Array;

export type AccountInfo<TData = Uint8Array | JsonParsedAccountData> = {
  /** u64 on the wire; bigint keeps it exact. */
  lamports: bigint;
  /** Base58 key of the owning program. */
  owner: string;
  data: TData;
  /** How the node encoded `data` (a jsonParsed request falls back to base64 without a parser). */
  dataEncoding: AccountEncoding;
  executable: boolean;
  /** u64 on the wire, often 2^64 - 1; bigint keeps it exact. */
  rentEpoch: bigint;
  /** Size of the account data in bytes. */
  space: number;
};

export type RpcContext = { slot: number; apiVersion?: string };

function fail(reason: string): never {
  throw new AccountDecodeError("The node returned an account record this client cannot read", { detail: reason });
}

function toBigInt(value: unknown, field: string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return BigInt(value);
  return fail(`${field} is not an unsigned integer`);
}

function decodeBinary(text: string, encoding: string): { bytes: Uint8Array; encoding: AccountEncoding } {
  switch (encoding) {
    case "base58":
      return { bytes: bs58.decode(text), encoding: "base58" };
    case "base64":
      return { bytes: new Uint8Array(Buffer.from(text, "base64")), encoding: "base64" };
    case "base64+zstd":
      return { bytes: decompress(new Uint8Array(Buffer.from(text, "base64"))), encoding: "base64+zstd" };
    default:
      return fail(`unknown data encoding ${JSON.stringify(encoding)}`);
  }
}

function decodeData(data: unknown): { data: Uint8Array | JsonParsedAccountData; encoding: AccountEncoding } {
  // getAccountInfo's default ("binary"): a bare base58 string.
  if (typeof data === "string") return { data: bs58.decode(data), encoding: "base58" };
  if (Array.isArray(data)) {
    const [text, encoding] = data as unknown[];
    if (typeof text !== "string" || typeof encoding !== "string") return fail("data is not [string, encoding]");
    const decoded = decodeBinary(text, encoding);
    return { data: decoded.bytes, encoding: decoded.encoding };
  }
  if (typeof data === "object" && data !== null) {
    const d = data as Record<string, unknown>;
    if (typeof d.program !== "string" || !("parsed" in d) || typeof d.space !== "number") {
      return fail("jsonParsed data lacks program, parsed or space");
    }
    return { data: { program: d.program, parsed: d.parsed, space: d.space }, encoding: "jsonParsed" };
  }
  return fail("data is missing");
}

/** Turns a wire account record into a typed one, decoding binary data to bytes. */
export function decodeAccount(raw: unknown): AccountInfo {
  if (typeof raw !== "object" || raw === null) return fail("the account is not an object");
  const r = raw as Record<string, unknown>;
  if (typeof r.owner !== "string") return fail("owner is not a string");
  if (typeof r.executable !== "boolean") return fail("executable is not a boolean");
  let decoded: ReturnType<typeof decodeData>;
  try {
    decoded = decodeData(r.data);
  } catch (cause) {
    if (cause instanceof AccountDecodeError) throw cause;
    throw new AccountDecodeError("The node returned account data that does not decode", { cause, detail: String(cause) });
  }
  const space =
    typeof r.space === "number"
      ? r.space
      : decoded.data instanceof Uint8Array
        ? decoded.data.length
        : decoded.data.space;
  return {
    lamports: toBigInt(r.lamports, "lamports"),
    owner: r.owner,
    data: decoded.data,
    dataEncoding: decoded.encoding,
    executable: r.executable,
    rentEpoch: toBigInt(r.rentEpoch, "rentEpoch"),
    space,
  };
}

export function decodeContext(raw: unknown): RpcContext {
  if (typeof raw !== "object" || raw === null) return fail("context is missing");
  const c = raw as Record<string, unknown>;
  if (typeof c.slot !== "number") return fail("context.slot is not a number");
  return typeof c.apiVersion === "string" ? { slot: c.slot, apiVersion: c.apiVersion } : { slot: c.slot };
}

/** Splits `{context, value}` and checks its shape. */
export function splitRpcResponse(raw: unknown): { context: RpcContext; value: unknown } {
  if (typeof raw !== "object" || raw === null || !("value" in raw)) return fail("the result has no value");
  const r = raw as { context?: unknown; value: unknown };
  return { context: decodeContext(r.context), value: r.value };
}
