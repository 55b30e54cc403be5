// Errors of the node's chain access beyond the JSON-RPC client's own (clients/json-rpc), which the
// chain code throws as they are. Messages never carry the node's URL with its credentials (lib/redact).
import { BaseError, type BaseErrorOptions } from "../../lib/errors.js";

export type ChainErrorOptions = BaseErrorOptions;

export class ChainError extends BaseError {
  override name = "ChainError";
}

/** The chain changed under us while fetching (a log's block hash no longer matches its block). */
export class ChainReorgedError extends ChainError {
  override name = "ChainReorgedError";
}
