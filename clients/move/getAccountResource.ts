// GET /v1/accounts/{address}/resource/{struct_tag}: one Move resource as `{type, data}`.
import { normalizeAddress } from "./address.js";
import type { MoveClient } from "./client.js";
import { isRecord, obj, str } from "./decode.js";
import { MoveResponseError } from "./errors.js";
import type { LedgerHeaders, RawMoveResource } from "./types.js";

export type GetAccountResourceParameters = {
  address: string;
  /** `<address>::<module>::<struct>`, e.g. `0x1::account::Account`. */
  resourceType: string;
  /** Read at this ledger version instead of the latest. */
  ledgerVersion?: bigint;
};

export type GetAccountResourceReturnType = { resource: RawMoveResource; ledger: LedgerHeaders };

export async function getAccountResource(
  client: MoveClient,
  params: GetAccountResourceParameters,
): Promise<GetAccountResourceReturnType> {
  const account = normalizeAddress(params.address);
  const { body, ledger } = await client.get(["accounts", account, "resource", params.resourceType], {
    ledger_version: params.ledgerVersion,
  });
  if (!isRecord(body)) throw new MoveResponseError("Unexpected resource from the Move node: the body is not an object");
  return { resource: { type: str(body, "type", "resource"), data: obj(body, "data", "resource") }, ledger };
}
