// Errors of the schema parser. Short message; the offending type/field in details.
export class SchemaError extends Error {
  override readonly name = "SchemaError";
  readonly details: Record<string, unknown>;
  constructor(message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = options.details ?? {};
  }
}
