// Checks a JSON answer against the documented REST shapes and turns wire values into typed ones. A body that
// breaks the shape raises MoveResponseError naming the field, instead of failing later on an undefined.
import { isAddress, normalizeAddress, normalizeHash, type MoveAddress, type TransactionHash } from "./address.js";
import { MoveResponseError } from "./errors.js";
import type { AptosErrorBody, MoveEvent, RawEvent, U64String, VersionedMoveEvent } from "./types.js";

const U64_MAX = (1n << 64n) - 1n;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(what: string, field: string, value: unknown): never {
  const shown = JSON.stringify(value)?.slice(0, 80) ?? String(value);
  throw new MoveResponseError(`Unexpected ${what} from the Move node: field ${field} is ${shown}`);
}

export function field(record: Record<string, unknown>, key: string, what: string): unknown {
  if (!(key in record)) fail(what, key, undefined);
  return record[key];
}

export function str(record: Record<string, unknown>, key: string, what: string): string {
  const value = field(record, key, what);
  if (typeof value !== "string") fail(what, key, value);
  return value;
}

export function bool(record: Record<string, unknown>, key: string, what: string): boolean {
  const value = field(record, key, what);
  if (typeof value !== "boolean") fail(what, key, value);
  return value;
}

export function obj(record: Record<string, unknown>, key: string, what: string): Record<string, unknown> {
  const value = field(record, key, what);
  if (!isRecord(value)) fail(what, key, value);
  return value;
}

export function arr(record: Record<string, unknown>, key: string, what: string): unknown[] {
  const value = field(record, key, what);
  if (!Array.isArray(value)) fail(what, key, value);
  return value;
}

/** A u64 sent as a decimal string, as bigint. */
export function u64(record: Record<string, unknown>, key: string, what: string): bigint {
  const value = field(record, key, what);
  if (typeof value !== "string" || !/^\d{1,20}$/.test(value) || BigInt(value) > U64_MAX) fail(what, key, value);
  return BigInt(value as U64String);
}

export function address(record: Record<string, unknown>, key: string, what: string): MoveAddress {
  const value = str(record, key, what);
  if (!isAddress(value)) fail(what, key, value);
  return normalizeAddress(value);
}

export function hash(record: Record<string, unknown>, key: string, what: string): TransactionHash {
  const value = str(record, key, what);
  try {
    return normalizeHash(value);
  } catch {
    return fail(what, key, value);
  }
}

export function decodeEvent(value: unknown, what = "event"): MoveEvent {
  if (!isRecord(value)) fail(what, "(event)", value);
  const guid = obj(value, "guid", what);
  return {
    guid: { creationNumber: u64(guid, "creation_number", what), accountAddress: address(guid, "account_address", what) },
    sequenceNumber: u64(value, "sequence_number", what),
    type: str(value, "type", what),
    data: field(value, "data", what),
  };
}

export function decodeVersionedEvent(value: unknown): VersionedMoveEvent {
  const event = decodeEvent(value);
  return { ...event, version: u64(value as Record<string, unknown>, "version", "event") };
}

export function decodeEvents(value: unknown, what = "event list"): VersionedMoveEvent[] {
  if (!Array.isArray(value)) fail(what, "(body)", value);
  return value.map((event) => decodeVersionedEvent(event));
}

export function decodeTransactionEvents(record: Record<string, unknown>, what: string): MoveEvent[] {
  return arr(record, "events", what).map((event) => decodeEvent(event as RawEvent, what));
}

/** The `{message, error_code, vm_error_code}` body, or undefined for any other shape. */
export function parseErrorBody(text: string): AptosErrorBody | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value.message !== "string" || typeof value.error_code !== "string") return undefined;
  const vm = value.vm_error_code;
  const body: AptosErrorBody = { message: value.message, error_code: value.error_code };
  if (typeof vm === "number" || vm === null) body.vm_error_code = vm;
  return body;
}
