// Errors of the node's store. Short message, cause, details; connection strings never appear.
import { BaseError } from "../../lib/errors.js";
import { databaseUrlMasking, maskUrl } from "../../lib/redact.js";

export class StoreError extends BaseError {
  override readonly name: string = "StoreError";
}

/** graph-node's admin API answers this when `subgraph_create` names an existing subgraph. */
export class SubgraphExistsError extends StoreError {
  override readonly name = "SubgraphExistsError";
  constructor(name: string) {
    super(`subgraph name already exists: ${name}`, { details: { name } });
  }
}

export class SubgraphNotFoundError extends StoreError {
  override readonly name = "SubgraphNotFoundError";
  constructor(name: string) {
    super(`subgraph name not found: ${name}`, { details: { name } });
  }
}

export class DeploymentNotFoundError extends StoreError {
  override readonly name = "DeploymentNotFoundError";
  constructor(id: string) {
    super(`deployment not found: ${id}`, { details: { id } });
  }
}

/** A connection string as messages and logs show it: the password masked (lib/redact's one rule). */
export function maskDatabaseUrl(url: string): string {
  return maskUrl(url, databaseUrlMasking);
}
