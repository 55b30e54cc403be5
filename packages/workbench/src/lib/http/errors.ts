// Errors of the HTTP kit. They extend the project's one error base.
import { BaseError } from "../errors.js";

/** A request body went over the reader's byte cap; the rest of the body was not read. */
export class BodyTooLargeError extends BaseError {
  override readonly name = "BodyTooLargeError";
  /** The cap that was exceeded, in bytes. */
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super(`request body larger than ${maxBytes} bytes`, { code: "ERR_BODY_TOO_LARGE", details: { maxBytes }, deterministic: true });
    this.maxBytes = maxBytes;
  }
}
