// GET /v1/transactions/by_hash/{txn_hash}: a committed (`user_transaction`, or another kind) or a
// `pending_transaction` still in mempool. An unknown hash is a MoveApiError with errorCode `transaction_not_found`.
import { normalizeHash } from "./address.js";
import type { MoveClient } from "./client.js";
import { address, bool, decodeTransactionEvents, hash, isRecord, obj, str, u64 } from "./decode.js";
import { MoveResponseError } from "./errors.js";
import type {
  MoveTransaction,
  RawOtherTransaction,
  RawPendingTransaction,
  RawTransactionPayload,
  RawUserTransaction,
} from "./types.js";

export type GetTransactionByHashParameters = { hash: string };
export type GetTransactionByHashReturnType = MoveTransaction;

export async function getTransactionByHash(
  client: MoveClient,
  params: GetTransactionByHashParameters,
): Promise<GetTransactionByHashReturnType> {
  const txnHash = normalizeHash(params.hash);
  const { body } = await client.get(["transactions", "by_hash", txnHash]);
  return decodeTransaction(body);
}

export function decodeTransaction(body: unknown): MoveTransaction {
  if (!isRecord(body) || typeof body.type !== "string") {
    throw new MoveResponseError("Unexpected transaction from the Move node: no `type` field");
  }
  if (body.type === "pending_transaction") {
    const what = "pending transaction";
    return { kind: "pending", ...requestFields(body, what), raw: body as RawPendingTransaction };
  }
  if (body.type === "user_transaction") {
    const what = "user transaction";
    return {
      kind: "user",
      ...requestFields(body, what),
      version: u64(body, "version", what),
      success: bool(body, "success", what),
      vmStatus: str(body, "vm_status", what),
      gasUsed: u64(body, "gas_used", what),
      timestampUs: u64(body, "timestamp", what),
      events: decodeTransactionEvents(body, what),
      raw: body as RawUserTransaction,
    };
  }
  const what = body.type;
  return {
    kind: "other",
    type: body.type,
    hash: hash(body, "hash", what),
    version: "version" in body ? u64(body, "version", what) : undefined,
    success: "success" in body ? bool(body, "success", what) : undefined,
    vmStatus: "vm_status" in body ? str(body, "vm_status", what) : undefined,
    events: "events" in body ? decodeTransactionEvents(body, what) : [],
    raw: body as RawOtherTransaction,
  };
}

function requestFields(body: Record<string, unknown>, what: string) {
  return {
    hash: hash(body, "hash", what),
    sender: address(body, "sender", what),
    sequenceNumber: u64(body, "sequence_number", what),
    maxGasAmount: u64(body, "max_gas_amount", what),
    gasUnitPrice: u64(body, "gas_unit_price", what),
    expirationTimestampSecs: u64(body, "expiration_timestamp_secs", what),
    payload: obj(body, "payload", what) as RawTransactionPayload,
  };
}
