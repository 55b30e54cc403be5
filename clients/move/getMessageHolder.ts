// Reads the sample module's MessageHolder under an account. A missing holder is not an error here: the node's
// 404 `resource_not_found` (or `account_not_found` on nodes that check the account first) becomes `no_message`.
import { normalizeAddress, type MoveAddress } from "./address.js";
import type { MoveClient } from "./client.js";
import { str } from "./decode.js";
import { MoveApiError, MoveResponseError } from "./errors.js";
import { getAccountResource } from "./getAccountResource.js";
import { decodeEventHandle, MESSAGE_CHANGE_EVENTS_FIELD, messageHolderType, parseStructTag } from "./messageModule.js";
import type { AptosErrorBody, EventHandleInfo, LedgerHeaders, RawMessageHolderData, RawMoveResource } from "./types.js";

export type GetMessageHolderParameters = {
  address: string;
  /** Account that published the module; defaults to `address` (the CLI flow publishes and sets from one profile). */
  moduleAddress?: string;
  ledgerVersion?: bigint;
};

export type MessageSet = {
  status: "set";
  address: MoveAddress;
  moduleAddress: MoveAddress;
  message: string;
  /** The `message_change_events` handle: counter = number of changes so far. */
  events: EventHandleInfo;
  resource: RawMoveResource<RawMessageHolderData>;
  ledger: LedgerHeaders;
};

export type NoMessage = {
  status: "no_message";
  address: MoveAddress;
  moduleAddress: MoveAddress;
  /** The node's 404 body, as sent. */
  reason: AptosErrorBody;
};

export type GetMessageHolderReturnType = MessageSet | NoMessage;

const NO_HOLDER_CODES = new Set(["resource_not_found", "account_not_found"]);

export async function getMessageHolder(
  client: MoveClient,
  params: GetMessageHolderParameters,
): Promise<GetMessageHolderReturnType> {
  const account = normalizeAddress(params.address);
  const moduleAddress = normalizeAddress(params.moduleAddress ?? params.address);
  const resourceType = messageHolderType(moduleAddress);
  try {
    const { resource, ledger } = await getAccountResource(client, {
      address: account,
      resourceType,
      ...(params.ledgerVersion !== undefined ? { ledgerVersion: params.ledgerVersion } : {}),
    });
    const tag = parseStructTag(resource.type);
    if (!tag || `${tag.address}::${tag.module}::${tag.name}` !== resourceType) {
      throw new MoveResponseError(`Expected a ${resourceType} resource, the node returned ${resource.type}`);
    }
    const what = "MessageHolder";
    return {
      status: "set",
      address: account,
      moduleAddress,
      message: str(resource.data, "message", what),
      events: decodeEventHandle(resource.data[MESSAGE_CHANGE_EVENTS_FIELD], what),
      resource: resource as RawMoveResource<RawMessageHolderData>,
      ledger,
    };
  } catch (error) {
    const reason = noHolderReason(error);
    if (reason) return { status: "no_message", address: account, moduleAddress, reason };
    throw error;
  }
}

export type GetMessageReturnType = { status: "set"; message: string } | NoMessage;

/** Just the message string (the REST counterpart of the module's `get_message`). */
export async function getMessage(client: MoveClient, params: GetMessageHolderParameters): Promise<GetMessageReturnType> {
  const holder = await getMessageHolder(client, params);
  return holder.status === "set" ? { status: "set", message: holder.message } : holder;
}

/** The 404 body when the error means "no holder here", otherwise undefined. */
export function noHolderReason(error: unknown): AptosErrorBody | undefined {
  if (error instanceof MoveApiError && error.status === 404 && error.body && NO_HOLDER_CODES.has(error.body.error_code)) {
    return error.body;
  }
  return undefined;
}
