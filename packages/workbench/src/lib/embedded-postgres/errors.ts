import { BaseError } from "../errors.js";

/** The embedded PostgreSQL server could not be found, initialised, started or stopped. */
export class EmbeddedPostgresError extends BaseError {
  override name = "EmbeddedPostgresError";
}
