import { BaseError } from "../lib/errors.js";

/** The real graph-node could not be found, started or reached. */
export class GraphNodeError extends BaseError {
  override name = "GraphNodeError";
}
