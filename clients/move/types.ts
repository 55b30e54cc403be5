// Shapes of the Aptos node REST API (`/v1`) as they travel over the wire (every u64 is a decimal string),
// and the typed results the actions return (u64 values that are counted or compared become bigint).
import type { MoveAddress, TransactionHash } from "./address.js";
export type { AptosErrorBody } from "./errors.js";

/** A u64 on the wire: a decimal string. */
export type U64String = string;

export type RawEventGuid = { creation_number: U64String; account_address: string };

/** An event inside a transaction. */
export type RawEvent = {
  guid: RawEventGuid;
  sequence_number: U64String;
  /** Move type of the payload, e.g. `0x…::message::MessageChangeEvent`. */
  type: string;
  data: unknown;
};

/** An event from the events endpoints: also carries the ledger version that emitted it. */
export type RawVersionedEvent = RawEvent & { version: U64String };

export type RawEntryFunctionPayload = {
  type: "entry_function_payload";
  function: string;
  type_arguments: string[];
  arguments: unknown[];
};

export type RawTransactionPayload = RawEntryFunctionPayload | { type: string; [key: string]: unknown };

export type RawUserTransactionRequest = {
  sender: string;
  sequence_number: U64String;
  max_gas_amount: U64String;
  gas_unit_price: U64String;
  expiration_timestamp_secs: U64String;
  payload: RawTransactionPayload;
  signature?: { type: string; [key: string]: unknown };
};

export type RawPendingTransaction = RawUserTransactionRequest & { type: "pending_transaction"; hash: string };

export type RawTransactionInfo = {
  version: U64String;
  hash: string;
  state_change_hash: string;
  event_root_hash: string;
  state_checkpoint_hash: string | null;
  gas_used: U64String;
  success: boolean;
  vm_status: string;
  accumulator_root_hash: string;
  changes: unknown[];
};

export type RawUserTransaction = RawTransactionInfo &
  RawUserTransactionRequest & {
    type: "user_transaction";
    events: RawEvent[];
    /** Microseconds since the Unix epoch. */
    timestamp: U64String;
  };

/** Genesis, block metadata, state checkpoint, validator and block epilogue transactions. */
export type RawOtherTransaction = Partial<RawTransactionInfo> & { type: string; hash: string; events?: RawEvent[] };

export type RawTransaction = RawPendingTransaction | RawUserTransaction | RawOtherTransaction;

/** A resource read from `/accounts/{address}/resource/{struct}`. */
export type RawMoveResource<Data = Record<string, unknown>> = { type: string; data: Data };

export type RawEventHandle = { counter: U64String; guid: { id: { addr: string; creation_num: U64String } } };

export type RawMessageHolderData = { message: string; message_change_events: RawEventHandle };

/** Headers every node answer carries (when the node sends them). */
export type LedgerHeaders = {
  chainId: number | undefined;
  ledgerVersion: bigint | undefined;
  ledgerTimestampUs: bigint | undefined;
  blockHeight: bigint | undefined;
};

// ---- typed results ----

export type MoveEvent<Data = unknown> = {
  guid: { creationNumber: bigint; accountAddress: MoveAddress };
  sequenceNumber: bigint;
  type: string;
  data: Data;
};

export type VersionedMoveEvent<Data = unknown> = MoveEvent<Data> & { version: bigint };

type UserRequestFields = {
  hash: TransactionHash;
  sender: MoveAddress;
  sequenceNumber: bigint;
  maxGasAmount: bigint;
  gasUnitPrice: bigint;
  expirationTimestampSecs: bigint;
  payload: RawTransactionPayload;
};

/** Sent, not yet executed: no version, no success, no events. */
export type PendingTransaction = UserRequestFields & { kind: "pending"; raw: RawPendingTransaction };

export type UserTransaction = UserRequestFields & {
  kind: "user";
  version: bigint;
  success: boolean;
  vmStatus: string;
  gasUsed: bigint;
  /** Microseconds since the Unix epoch. */
  timestampUs: bigint;
  events: MoveEvent[];
  raw: RawUserTransaction;
};

export type OtherTransaction = {
  kind: "other";
  /** The node's `type`, e.g. `block_metadata_transaction`. */
  type: string;
  hash: TransactionHash;
  version: bigint | undefined;
  success: boolean | undefined;
  vmStatus: string | undefined;
  events: MoveEvent[];
  raw: RawOtherTransaction;
};

export type MoveTransaction = PendingTransaction | UserTransaction | OtherTransaction;

export type EventHandleInfo = {
  /** Number of events emitted on the handle so far (also the next sequence number). */
  counter: bigint;
  guid: { creationNumber: bigint; accountAddress: MoveAddress };
};

export type MessageChange = { fromMessage: string; toMessage: string };
