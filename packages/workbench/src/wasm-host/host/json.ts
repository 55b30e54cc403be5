// json.*: parsing like serde_json (arbitrary precision numbers) and the number conversions.
import type { HostEnv, HostFunctions } from "./env.js";
import { HostError } from "../errors.js";
import { TypeId } from "../abi/typeIds.js";
import { parseJsonBytes } from "./jsonParse.js";
import { parseBigInt } from "./bigInt.js";
import type { JsonValue } from "../abi/json.js";

const MAX_JSON_SIZE = 10_000_000;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U64_MAX = 2n ** 64n - 1n;

export function parseJsonForMapping(bytes: Uint8Array): JsonValue {
  if (bytes.length > MAX_JSON_SIZE) throw new HostError("JSON", `JSON size exceeds max size of ${MAX_JSON_SIZE}`);
  try {
    return parseJsonBytes(bytes);
  } catch (cause) {
    const shown = Array.from(bytes.subarray(0, 1024)).join(", ");
    throw new HostError("JSON", `Failed to parse JSON from byte array. Bytes (truncated to 1024 chars): \`[${shown}]\`: ${(cause as Error).message}`, { cause });
  }
}

/** Rust's `i64::from_str` / `u64::from_str`: optional sign, ASCII digits only, range-checked. */
function parseRustInt(s: string, min: bigint, max: bigint, unsigned: boolean): bigint | null {
  const m = (unsigned ? /^\+?[0-9]+$/ : /^[+-]?[0-9]+$/).exec(s);
  if (m === null) return null;
  const n = BigInt(s.replace(/^\+/, ""));
  return n < min || n > max ? null : n;
}

/** Rust's `f64::from_str`: decimal and exponent forms, inf/infinity/nan in any case. */
export function parseRustFloat(s: string): number | null {
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(s)) return NaN;
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(s)) return null;
  return Number(s);
}

export function jsonImports(env: HostEnv): HostFunctions {
  const { codec } = env;
  return {
    "json.fromBytes": (ptr: number) => codec.writeJsonValue(parseJsonForMapping(codec.readBytes(ptr))),
    "json.try_fromBytes": (ptr: number) => {
      let value: JsonValue | null = null;
      try {
        value = parseJsonForMapping(codec.readBytes(ptr));
      } catch (error) {
        env.options.log?.("warning", `Failed to parse JSON from byte array: ${(error as Error).message}`);
      }
      return writeResult(env, value === null ? null : codec.writeJsonValue(value), TypeId.WrappedJsonValue, TypeId.ResultJsonValueBool);
    },
    "json.toI64": (ptr: number) => {
      const s = codec.readString(ptr);
      const n = parseRustInt(s, I64_MIN, I64_MAX, false);
      if (n === null) throw new HostError("JSON", `JSON \`${s}\` cannot be parsed as i64`);
      return n;
    },
    "json.toU64": (ptr: number) => {
      const s = codec.readString(ptr);
      const n = parseRustInt(s, 0n, U64_MAX, true);
      if (n === null) throw new HostError("JSON", `JSON \`${s}\` cannot be parsed as u64`);
      return BigInt.asIntN(64, n);
    },
    "json.toF64": (ptr: number) => {
      const s = codec.readString(ptr);
      const n = parseRustFloat(s);
      if (n === null) throw new HostError("JSON", `JSON \`${s}\` cannot be parsed as f64`);
      return n;
    },
    "json.toBigInt": (ptr: number) => {
      const s = codec.readString(ptr);
      const n = parseBigInt(s);
      if (n === null) throw new HostError("JSON", `JSON \`${s}\` is not a decimal string`);
      return codec.writeBigInt(n);
    },
  };
}

/** graph-ts `Result<V, bool>` = {_value: Wrapped<V> | null, _error: Wrapped<bool> | null}. */
export function writeResult(env: HostEnv, valuePtr: number | null, wrappedTypeId: number, resultTypeId: number): number {
  const { codec } = env;
  let wrappedValue = 0;
  let wrappedError = 0;
  if (valuePtr === null) {
    wrappedError = codec.writeWrappedBool(true);
  } else {
    wrappedValue = codec.allocObject(wrappedTypeId, 4);
    codec.writeU32(wrappedValue, valuePtr);
  }
  const result = codec.allocObject(resultTypeId, 8);
  codec.writeU32(result, wrappedValue);
  codec.writeU32(result + 4, wrappedError);
  return result;
}
