// One base error for every Move-node client failure. Each class carries a stable `code`; messages never hold an
// unmasked node URL (node addresses carry an access key as a path segment).
import { BaseError, withDetailLine, type DetailLineOptions } from "subgraph-workbench/lib/errors";

/** Error body of every non-2xx answer. */
export type AptosErrorBody = {
  message: string;
  /** `account_not_found`, `resource_not_found`, `transaction_not_found`, `invalid_input`, `internal_error`, ... */
  error_code: string;
  vm_error_code?: number | null;
};

export type MoveClientErrorOptions = DetailLineOptions;

export class MoveClientError extends BaseError {
  override name = "MoveClientError";
  override readonly code: string = "MOVE_CLIENT_ERROR";

  constructor(shortMessage: string, options: MoveClientErrorOptions = {}) {
    super(shortMessage, withDetailLine(shortMessage, options));
  }
}

/** An address that is not 0x plus 1 to 64 hex digits. */
export class InvalidAddressError extends MoveClientError {
  override name = "InvalidAddressError";
  override readonly code = "MOVE_INVALID_ADDRESS";
  readonly input: string;

  constructor(input: string) {
    super(`Invalid account address: ${JSON.stringify(input.slice(0, 80))}`, {
      detail: "expected 0x followed by 1 to 64 hex digits (short forms are left-padded with zeros)",
    });
    this.input = input;
  }
}

/** A transaction hash that is not 0x plus exactly 64 hex digits. */
export class InvalidHashError extends MoveClientError {
  override name = "InvalidHashError";
  override readonly code = "MOVE_INVALID_HASH";
  readonly input: string;

  constructor(input: string) {
    super(`Invalid transaction hash: ${JSON.stringify(input.slice(0, 80))}`, {
      detail: "expected 0x followed by exactly 64 hex digits (32 bytes)",
    });
    this.input = input;
  }
}

/** A caller argument the client rejects before any request (bad page size, bad node URL, ...). */
export class InvalidArgumentError extends MoveClientError {
  override name = "InvalidArgumentError";
  override readonly code = "MOVE_INVALID_ARGUMENT";
}

/** The node answered with a non-2xx status. `body` is the node's error body, unchanged when it was JSON. */
export class MoveApiError extends MoveClientError {
  override name = "MoveApiError";
  override readonly code = "MOVE_API_ERROR";
  readonly status: number;
  /** The node's `error_code` (`resource_not_found`, `invalid_input`, ...); undefined when the body was not JSON. */
  readonly errorCode: string | undefined;
  readonly vmErrorCode: number | null | undefined;
  /** The parsed `{message, error_code, vm_error_code}` body, or undefined when the body had another shape. */
  readonly body: AptosErrorBody | undefined;
  /** The raw body text (first 500 characters). */
  readonly rawBody: string;
  /** The request URL with its access key masked. */
  readonly url: string;

  constructor(args: { status: number; url: string; body: AptosErrorBody | undefined; rawBody: string }) {
    const what = args.body ? `${args.body.error_code}: ${args.body.message}` : args.rawBody.slice(0, 200) || "(empty body)";
    super(`Move node answered HTTP ${args.status} ${what}`, { detail: `URL: ${args.url}` });
    this.status = args.status;
    this.url = args.url;
    this.body = args.body;
    this.errorCode = args.body?.error_code;
    this.vmErrorCode = args.body?.vm_error_code;
    this.rawBody = args.rawBody.slice(0, 500);
  }
}

/** Nothing usable came back: refused, reset, DNS failure, or the timeout ran out. */
export class MoveNetworkError extends MoveClientError {
  override name = "MoveNetworkError";
  override readonly code: string = "MOVE_NETWORK_ERROR";
  readonly url: string;

  constructor(args: { url: string; reason: string; cause?: unknown }) {
    super(`Could not reach the Move node: ${args.reason}`, { detail: `URL: ${args.url}`, cause: args.cause });
    this.url = args.url;
  }
}

export class MoveTimeoutError extends MoveNetworkError {
  override name = "MoveTimeoutError";
  override readonly code = "MOVE_TIMEOUT";
  readonly timeoutMs: number;

  constructor(args: { url: string; timeoutMs: number; cause?: unknown }) {
    super({ url: args.url, reason: `no answer within ${args.timeoutMs} ms`, cause: args.cause });
    this.timeoutMs = args.timeoutMs;
  }
}

/** A 2xx answer whose body is not JSON or breaks the documented shape. */
export class MoveResponseError extends MoveClientError {
  override name = "MoveResponseError";
  override readonly code = "MOVE_BAD_RESPONSE";
}
