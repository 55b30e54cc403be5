// GET /v1/accounts/{address}/events/{event_handle}/{field_name}?start=&limit=: one page of the events emitted on
// the handle stored in field `field_name` of resource `event_handle` under `address`, in sequence order.
import { normalizeAddress } from "./address.js";
import type { MoveClient } from "./client.js";
import { decodeEvents } from "./decode.js";
import { InvalidArgumentError } from "./errors.js";
import type { LedgerHeaders, VersionedMoveEvent } from "./types.js";

export type EventPageParameters = {
  /** First sequence number. Left out, the node returns the most recent `limit` events. */
  start?: bigint;
  /** Page size; the node's default is 25 and its maximum is a node setting (100 by default). */
  limit?: number;
};

export type GetEventsByEventHandleParameters = EventPageParameters & {
  address: string;
  /** Struct holding the handle, e.g. `0x…::message::MessageHolder`. */
  eventHandle: string;
  /** Field of that struct, e.g. `message_change_events`. */
  fieldName: string;
};

export type EventPage = { events: VersionedMoveEvent[]; ledger: LedgerHeaders };

export async function getEventsByEventHandle(client: MoveClient, params: GetEventsByEventHandleParameters): Promise<EventPage> {
  const account = normalizeAddress(params.address);
  const { body, ledger } = await client.get(
    ["accounts", account, "events", params.eventHandle, params.fieldName],
    pageQuery(params),
  );
  return { events: decodeEvents(body), ledger };
}

export function pageQuery(params: EventPageParameters): { start: bigint | undefined; limit: number | undefined } {
  if (params.start !== undefined && params.start < 0n) throw new InvalidArgumentError(`start must be >= 0, got ${params.start}`);
  // limit is a u16 on the node; the node itself enforces its own maximum.
  if (params.limit !== undefined && (!Number.isInteger(params.limit) || params.limit < 1 || params.limit > 65_535)) {
    throw new InvalidArgumentError(`limit must be an integer from 1 to 65535, got ${params.limit}`);
  }
  return { start: params.start, limit: params.limit };
}
