// The project's one error base. Every error family extends it: a short message a user reads first, an
// optional stable code, details as a record (never a secret), the cause, and whether retrying the same
// input could give another outcome (graph-node's deterministic/non-deterministic split).

export interface BaseErrorOptions {
  cause?: unknown;
  code?: string;
  details?: Record<string, unknown>;
  /** True when the same input always fails the same way (a mapping trap, a bad manifest). */
  deterministic?: boolean;
}

export class BaseError extends Error {
  override name = "BaseError";
  /** The message without the cause's text appended. */
  readonly shortMessage: string;
  readonly code: string | undefined;
  readonly details: Record<string, unknown>;
  readonly deterministic: boolean | undefined;

  constructor(shortMessage: string, options: BaseErrorOptions = {}) {
    super(shortMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.shortMessage = shortMessage;
    this.code = options.code;
    this.details = options.details ?? {};
    this.deterministic = options.deterministic;
  }
}

/** The text of any thrown value, for messages that wrap a cause. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
