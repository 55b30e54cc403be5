// Errors of the indexer: a deployment that cannot be indexed, or a failed worker.
import { BaseError } from "../../lib/errors.js";

export class IndexerError extends BaseError {
  override name = "IndexerError";
}
