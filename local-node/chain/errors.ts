// Errors raised while talking to an Ethereum JSON-RPC node. Messages never carry the node's URL
// with its credentials (see clients/shared/redact).

export interface ChainErrorOptions {
  cause?: unknown;
  details?: Record<string, unknown>;
}

export class ChainError extends Error {
  override name = "ChainError";
  readonly details: Record<string, unknown>;
  constructor(message: string, options: ChainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = options.details ?? {};
  }
}

/** The node answered with a JSON-RPC error object. */
export class RpcResponseError extends ChainError {
  override name = "RpcResponseError";
  readonly code: number;
  readonly data: unknown;
  constructor(method: string, code: number, message: string, data?: unknown) {
    super(`${method} failed: ${message} (code ${code})`, { details: { method, code } });
    this.code = code;
    this.data = data;
  }
}

/** Transport-level failure: connection refused, HTTP status, bad JSON, timeout. */
export class RpcTransportError extends ChainError {
  override name = "RpcTransportError";
  readonly timedOut: boolean;
  constructor(message: string, options: ChainErrorOptions & { timedOut?: boolean } = {}) {
    super(message, options);
    this.timedOut = options.timedOut ?? false;
  }
}

/** The chain changed under us while fetching (a log's block hash no longer matches its block). */
export class ChainReorgedError extends ChainError {
  override name = "ChainReorgedError";
}

/** The project's one URL-masking rule, re-exported for the chain code's messages. */
export { maskUrl } from "../../lib/redact.js";
