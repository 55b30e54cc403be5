// The fork's errors. A failed fetch is never deterministic: the base may answer on a retry, and
// graph-node reports it as a non-deterministic host error that the deployment retries.
import { BaseError, type BaseErrorOptions } from "../../lib/errors.js";

/** graph-node's `StoreError::ForkFailure`: its message starts "subgraph forking failed: ". */
export class ForkError extends BaseError {
  override name = "ForkError";
  constructor(reason: string, options: Omit<BaseErrorOptions, "deterministic"> = {}) {
    super(`subgraph forking failed: ${reason}`, { ...options, deterministic: false });
  }
}

/** `--fork-base` (GRAPH_FORK_BASE) is not an http(s) URL. */
export class ForkBaseError extends BaseError {
  override name = "ForkBaseError";
}
