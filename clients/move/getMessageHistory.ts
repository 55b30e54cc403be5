// The MessageChangeEvent history of an account, read page by page through the holder's event handle
// (`/events/<address>::message::MessageHolder/message_change_events`), oldest first.
import { normalizeAddress, type MoveAddress } from "./address.js";
import type { MoveClient } from "./client.js";
import { InvalidArgumentError, MoveResponseError } from "./errors.js";
import { getEventsByEventHandle } from "./getEventsByEventHandle.js";
import { noHolderReason, type NoMessage } from "./getMessageHolder.js";
import { decodeMessageChange, MESSAGE_CHANGE_EVENTS_FIELD, messageHolderType } from "./messageModule.js";
import type { MessageChange } from "./types.js";

export type MessageHistoryParameters = {
  address: string;
  moduleAddress?: string;
  /** First sequence number to read; default 0 (the first change). */
  start?: bigint;
  /** Events per request; default 25 (the node's default page). */
  pageSize?: number;
  /** Stop after this many events in total. */
  maxEvents?: number;
};

export type MessageChangeRecord = MessageChange & { sequenceNumber: bigint; version: bigint };

export type MessageHistoryPage = { events: MessageChangeRecord[]; nextStart: bigint };

export type GetMessageHistoryReturnType =
  | { status: "set"; address: MoveAddress; moduleAddress: MoveAddress; changes: MessageChangeRecord[]; pages: number }
  | NoMessage;

const DEFAULT_PAGE_SIZE = 25;

/**
 * Yields one page at a time until the node returns a short page. Throws MoveApiError for a missing holder;
 * `getMessageHistory` turns that into `no_message`.
 */
export async function* iterateMessageHistory(
  client: MoveClient,
  params: MessageHistoryParameters,
): AsyncGenerator<MessageHistoryPage> {
  const account = normalizeAddress(params.address);
  const moduleAddress = normalizeAddress(params.moduleAddress ?? params.address);
  const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
  const maxEvents = params.maxEvents ?? Number.POSITIVE_INFINITY;
  if (!(maxEvents > 0)) throw new InvalidArgumentError(`maxEvents must be positive, got ${params.maxEvents}`);
  let start = params.start ?? 0n;
  let read = 0;
  while (read < maxEvents) {
    const limit = Math.min(pageSize, maxEvents - read);
    const { events } = await getEventsByEventHandle(client, {
      address: account,
      eventHandle: messageHolderType(moduleAddress),
      fieldName: MESSAGE_CHANGE_EVENTS_FIELD,
      start,
      limit,
    });
    const records = events.map((event, i) => {
      // Sequence numbers on one handle are consecutive; a gap or a repeat would make paging skip or loop.
      if (event.sequenceNumber !== start + BigInt(i)) {
        throw new MoveResponseError(
          `Event page out of order: expected sequence number ${start + BigInt(i)}, got ${event.sequenceNumber}`,
        );
      }
      return { ...decodeMessageChange(event.data), sequenceNumber: event.sequenceNumber, version: event.version };
    });
    start += BigInt(records.length);
    read += records.length;
    if (records.length > 0) yield { events: records, nextStart: start };
    if (records.length < limit) return;
  }
}

/** Every change from `start` on (or up to `maxEvents`), or `no_message` when the account has no holder. */
export async function getMessageHistory(
  client: MoveClient,
  params: MessageHistoryParameters,
): Promise<GetMessageHistoryReturnType> {
  const address = normalizeAddress(params.address);
  const moduleAddress = normalizeAddress(params.moduleAddress ?? params.address);
  const changes: MessageChangeRecord[] = [];
  let pages = 0;
  try {
    for await (const page of iterateMessageHistory(client, params)) {
      changes.push(...page.events);
      pages += 1;
    }
  } catch (error) {
    const reason = noHolderReason(error);
    if (reason) return { status: "no_message", address, moduleAddress, reason };
    throw error;
  }
  return { status: "set", address, moduleAddress, changes, pages };
}
