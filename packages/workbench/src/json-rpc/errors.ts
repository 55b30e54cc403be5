// One base error for every JSON-RPC client failure; JSON-RPC error codes map to subclasses with a static `code`.
import { BaseError, withDetailLine, type DetailLineOptions } from "../lib/errors.js";

export type RpcClientErrorOptions = DetailLineOptions;

export class RpcClientError extends BaseError {
  override name = "RpcClientError";

  constructor(shortMessage: string, options: RpcClientErrorOptions = {}) {
    super(shortMessage, withDetailLine(shortMessage, options));
  }
}

/** The endpoint answered with a non-2xx status or a body that is not JSON-RPC. */
export class HttpRequestError extends RpcClientError {
  override name = "HttpRequestError";
  readonly status: number;
  /** The endpoint with its access key masked. */
  readonly url: string;
  readonly body: string;
  /** The answer's Retry-After header (seconds or an HTTP date), when it had one. */
  readonly retryAfter: string | null;

  constructor(args: { status: number; url: string; body: string; cause?: unknown; retryAfter?: string | undefined }) {
    super(`HTTP request failed with status ${args.status}`, {
      detail: `URL: ${args.url}${args.body ? `; body: ${args.body.slice(0, 200)}` : ""}`,
      cause: args.cause,
    });
    this.status = args.status;
    this.url = args.url;
    this.body = args.body;
    this.retryAfter = args.retryAfter ?? null;
  }
}

/** Nothing answered: refused, reset, DNS failure. */
export class ConnectionError extends RpcClientError {
  override name = "ConnectionError";
  readonly url: string;

  constructor(args: { url: string; cause?: unknown }) {
    super("Could not connect to the JSON-RPC endpoint", { detail: `URL: ${args.url}`, cause: args.cause });
    this.url = args.url;
  }
}

export class TimeoutError extends RpcClientError {
  override name = "TimeoutError";
  readonly timeoutMs: number;

  constructor(args: { url: string; timeoutMs: number; cause?: unknown }) {
    super(`The JSON-RPC request took longer than ${args.timeoutMs} ms`, { detail: `URL: ${args.url}`, cause: args.cause });
    this.timeoutMs = args.timeoutMs;
  }
}

/** The answer grew past the client's limit: it was cut off there, and nothing of it is kept. */
export class ResponseTooLargeError extends RpcClientError {
  override name = "ResponseTooLargeError";
  readonly url: string;
  readonly limitBytes: number;

  constructor(args: { url: string; limitBytes: number }) {
    super(`The JSON-RPC answer is larger than ${args.limitBytes} bytes`, { detail: `URL: ${args.url}` });
    this.url = args.url;
    this.limitBytes = args.limitBytes;
  }
}

/** A JSON body that breaks the JSON-RPC 2.0 response shape. */
export class InvalidResponseError extends RpcClientError {
  override name = "InvalidResponseError";
}

/** A batch answer that left out the response to one request. */
export class MissingBatchResponseError extends RpcClientError {
  override name = "MissingBatchResponseError";
  readonly id: number;

  constructor(id: number) {
    super(`The batch answer has no response for request id ${id}`);
    this.id = id;
  }
}

/** An error object returned by the node: its message is the node's text, unchanged. */
export class RpcResponseError extends RpcClientError {
  override name = "RpcResponseError";
  static readonly code: number | undefined = undefined;
  declare readonly code: number;
  readonly data: unknown;
  /** The HTTP status the error came with, when it was not 2xx (a 429 with a -32005 body). */
  httpStatus: number | null = null;
  /** The answer's Retry-After header, when it had one. */
  retryAfter: string | null = null;

  constructor(error: { code: number; message: string; data?: unknown }) {
    super(error.message, { code: error.code });
    this.data = error.data;
  }
}

export class ParseRpcError extends RpcResponseError {
  override name = "ParseRpcError";
  static override readonly code = -32700;
}

export class InvalidRequestRpcError extends RpcResponseError {
  override name = "InvalidRequestRpcError";
  static override readonly code = -32600;
}

export class MethodNotFoundRpcError extends RpcResponseError {
  override name = "MethodNotFoundRpcError";
  static override readonly code = -32601;
}

export class InvalidParamsRpcError extends RpcResponseError {
  override name = "InvalidParamsRpcError";
  static override readonly code = -32602;
}

export class InternalRpcError extends RpcResponseError {
  override name = "InternalRpcError";
  static override readonly code = -32603;
}

/** -32000: the generic server error (geth, EDR and the storage-range emulation use it). */
export class ServerRpcError extends RpcResponseError {
  override name = "ServerRpcError";
  static override readonly code = -32000;
}

export class LimitExceededRpcError extends RpcResponseError {
  override name = "LimitExceededRpcError";
  static override readonly code = -32005;
}

const byCode = new Map<number, new (error: { code: number; message: string; data?: unknown }) => RpcResponseError>(
  [ParseRpcError, InvalidRequestRpcError, MethodNotFoundRpcError, InvalidParamsRpcError, InternalRpcError, ServerRpcError, LimitExceededRpcError].map(
    (cls) => [cls.code, cls],
  ),
);

/** Builds the error class that matches a JSON-RPC error object's code. */
export function rpcResponseErrorFrom(error: { code: number; message: string; data?: unknown }): RpcResponseError {
  const Cls = byCode.get(error.code) ?? RpcResponseError;
  return new Cls(error);
}
