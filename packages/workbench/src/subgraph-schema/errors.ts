// Errors of the schema parser. Short message; the offending type/field in details.
import { BaseError } from "../lib/errors.js";
export class SchemaError extends BaseError {
  override readonly name = "SchemaError";
  constructor(message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, { ...options, deterministic: true });
  }
}
