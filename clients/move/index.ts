// Public surface of the Move-chain REST client.
export { createMoveClient } from "./client.js";
export type { MoveClient, MoveClientOptions, MoveResponse } from "./client.js";
export { normalizeAddress, normalizeHash, isAddress, sameAddress } from "./address.js";
export type { MoveAddress, TransactionHash } from "./address.js";
export { getTransactionByHash, decodeTransaction } from "./getTransactionByHash.js";
export type { GetTransactionByHashParameters, GetTransactionByHashReturnType } from "./getTransactionByHash.js";
export { getAccountResource } from "./getAccountResource.js";
export type { GetAccountResourceParameters, GetAccountResourceReturnType } from "./getAccountResource.js";
export { getMessageHolder, getMessage } from "./getMessageHolder.js";
export type {
  GetMessageHolderParameters,
  GetMessageHolderReturnType,
  GetMessageReturnType,
  MessageSet,
  NoMessage,
} from "./getMessageHolder.js";
export { getEventsByEventHandle } from "./getEventsByEventHandle.js";
export type { EventPage, EventPageParameters, GetEventsByEventHandleParameters } from "./getEventsByEventHandle.js";
export { getEventsByCreationNumber } from "./getEventsByCreationNumber.js";
export type { GetEventsByCreationNumberParameters } from "./getEventsByCreationNumber.js";
export { getMessageHistory, iterateMessageHistory } from "./getMessageHistory.js";
export type {
  GetMessageHistoryReturnType,
  MessageChangeRecord,
  MessageHistoryPage,
  MessageHistoryParameters,
} from "./getMessageHistory.js";
export {
  MESSAGE_CHANGE_EVENT,
  MESSAGE_CHANGE_EVENTS_FIELD,
  MESSAGE_HOLDER,
  MESSAGE_MODULE,
  decodeMessageChange,
  isMessageChangeEvent,
  messageChangesOf,
  messageHolderType,
} from "./messageModule.js";
export {
  InvalidAddressError,
  InvalidArgumentError,
  InvalidHashError,
  MoveApiError,
  MoveClientError,
  MoveNetworkError,
  MoveResponseError,
  MoveTimeoutError,
} from "./errors.js";
export type { MoveClientErrorOptions } from "./errors.js";
export type {
  AptosErrorBody,
  EventHandleInfo,
  LedgerHeaders,
  MessageChange,
  MoveEvent,
  MoveTransaction,
  OtherTransaction,
  PendingTransaction,
  RawEvent,
  RawMessageHolderData,
  RawMoveResource,
  RawPendingTransaction,
  RawTransaction,
  RawUserTransaction,
  RawVersionedEvent,
  UserTransaction,
  VersionedMoveEvent,
} from "./types.js";
export { MOVE_USAGE, UsageError, parseMoveArgs, runMoveCommand, toJson } from "./moveCommand.js";
