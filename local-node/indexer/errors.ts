// Errors of the indexer: a deployment that cannot be indexed, or a failed worker.

export class IndexerError extends Error {
  override name = "IndexerError";
  readonly details: Record<string, unknown>;
  constructor(message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = options.details ?? {};
  }
}
