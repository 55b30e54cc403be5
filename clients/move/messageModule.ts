// Names of the sample `message` module (move/sources/message.move) and decoding of its REST values.
import { isAddress, normalizeAddress, type MoveAddress } from "./address.js";
import { isRecord, obj, str, u64, address } from "./decode.js";
import { MoveResponseError } from "./errors.js";
import type { EventHandleInfo, MessageChange, MoveEvent } from "./types.js";

export const MESSAGE_MODULE = "message";
export const MESSAGE_HOLDER = "MessageHolder";
export const MESSAGE_CHANGE_EVENT = "MessageChangeEvent";
export const MESSAGE_CHANGE_EVENTS_FIELD = "message_change_events";

/** `0x…::message::MessageHolder` for the account that published the module. */
export function messageHolderType(moduleAddress: MoveAddress): string {
  return `${moduleAddress}::${MESSAGE_MODULE}::${MESSAGE_HOLDER}`;
}

/** Splits `<address>::<module>::<name>` (no generics); undefined for anything else. */
export function parseStructTag(tag: string): { address: MoveAddress; module: string; name: string } | undefined {
  const parts = tag.split("::");
  if (parts.length !== 3) return undefined;
  const [addr, module, name] = parts as [string, string, string];
  if (!isAddress(addr) || !/^\w+$/.test(module) || !/^\w+$/.test(name)) return undefined;
  return { address: normalizeAddress(addr), module, name };
}

/** True for a `MessageChangeEvent` of the module (of any publisher when `moduleAddress` is left out). */
export function isMessageChangeEvent(event: Pick<MoveEvent, "type">, moduleAddress?: MoveAddress): boolean {
  const tag = parseStructTag(event.type);
  return (
    tag !== undefined &&
    tag.module === MESSAGE_MODULE &&
    tag.name === MESSAGE_CHANGE_EVENT &&
    (moduleAddress === undefined || tag.address === moduleAddress)
  );
}

export function decodeMessageChange(data: unknown): MessageChange {
  if (!isRecord(data)) throw new MoveResponseError("Unexpected MessageChangeEvent data from the Move node");
  return { fromMessage: str(data, "from_message", "MessageChangeEvent"), toMessage: str(data, "to_message", "MessageChangeEvent") };
}

/** The message changes among a transaction's events, in emission order. */
export function messageChangesOf(events: readonly MoveEvent[], moduleAddress?: MoveAddress): MessageChange[] {
  return events.filter((event) => isMessageChangeEvent(event, moduleAddress)).map((event) => decodeMessageChange(event.data));
}

/** `{counter, guid: {id: {addr, creation_num}}}` of an event handle field. */
export function decodeEventHandle(value: unknown, what: string): EventHandleInfo {
  if (!isRecord(value)) throw new MoveResponseError(`Unexpected ${what} from the Move node: the event handle is not an object`);
  const id = obj(obj(value, "guid", what), "id", what);
  return {
    counter: u64(value, "counter", what),
    guid: { creationNumber: u64(id, "creation_num", what), accountAddress: address(id, "addr", what) },
  };
}
