// The project's one error base. Every error family extends it: a short message a user reads first, an
// optional stable code, details as a record (never a secret), the cause, and whether retrying the same
// input could give another outcome (graph-node's deterministic/non-deterministic split).

export interface BaseErrorOptions {
  cause?: unknown;
  code?: string | number;
  details?: Record<string, unknown>;
  /** True when the same input always fails the same way (a mapping trap, a bad manifest). */
  deterministic?: boolean;
  /** The full message, when it says more than the short one (e.g. with a details line appended). */
  message?: string;
}

export class BaseError extends Error {
  override name = "BaseError";
  /** The message without a details line appended. */
  readonly shortMessage: string;
  /** A stable code: a name such as ERR_JWT_EXPIRED, or a JSON-RPC error number. */
  readonly code: string | number | undefined;
  readonly details: Record<string, unknown>;
  readonly deterministic: boolean | undefined;

  constructor(shortMessage: string, options: BaseErrorOptions = {}) {
    super(options.message ?? shortMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.shortMessage = shortMessage;
    this.code = options.code;
    this.details = options.details ?? {};
    this.deterministic = options.deterministic;
  }
}

export interface DetailLineOptions extends Omit<BaseErrorOptions, "message"> {
  /** One line of context for the message (viem's "Details:"); never an unmasked endpoint. */
  detail?: string;
}

/** Base options whose message ends with a "Details:" line, the detail also kept in `details`. */
export function withDetailLine(shortMessage: string, options: DetailLineOptions): BaseErrorOptions {
  const { detail, ...rest } = options;
  if (!detail) return rest;
  return { ...rest, details: { detail, ...rest.details }, message: `${shortMessage}\n\nDetails: ${detail}` };
}

/** The text of any thrown value, for messages that wrap a cause. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
