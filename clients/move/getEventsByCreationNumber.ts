// GET /v1/accounts/{address}/events/{creation_number}?start=&limit=: the same stream addressed by the handle's
// guid (`creation_num` of the handle, under the account it was created for).
import { normalizeAddress } from "./address.js";
import type { MoveClient } from "./client.js";
import { decodeEvents } from "./decode.js";
import { InvalidArgumentError } from "./errors.js";
import { pageQuery, type EventPage, type EventPageParameters } from "./getEventsByEventHandle.js";

export type GetEventsByCreationNumberParameters = EventPageParameters & { address: string; creationNumber: bigint };

export async function getEventsByCreationNumber(
  client: MoveClient,
  params: GetEventsByCreationNumberParameters,
): Promise<EventPage> {
  const account = normalizeAddress(params.address);
  if (params.creationNumber < 0n) throw new InvalidArgumentError(`creationNumber must be >= 0, got ${params.creationNumber}`);
  const { body, ledger } = await client.get(
    ["accounts", account, "events", params.creationNumber.toString()],
    pageQuery(params),
  );
  return { events: decodeEvents(body), ledger };
}
