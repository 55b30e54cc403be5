// Why a deployment could not be loaded. `message` is the text graph-node's registrar would answer
// (`subgraph resolve error: ...`, `subgraph validation error: [...]`), so the admin server can pass it
// through unchanged; `code` lets callers and tests tell the cases apart.
import { BaseError } from "../../lib/errors.js";

export type DeployErrorCode =
  /** The manifest hash (or a file it links) is not in the local IPFS store. */
  | "IPFS_NOT_FOUND"
  /** A hash that is not a valid deployment id / CID. */
  | "INVALID_HASH"
  /** The manifest (or a linked YAML/JSON file) does not parse. */
  | "PARSE"
  /** The manifest parses but has the wrong shape (missing or mistyped fields). */
  | "RESOLVE"
  /** specVersion / apiVersion outside what this node supports. */
  | "VERSION"
  /** schema.graphql is invalid. */
  | "SCHEMA"
  /** The subgraph uses a feature its manifest does not declare. */
  | "FEATURES"
  /** Semantic checks failed: kinds, networks, addresses, ABI events, handler exports. */
  | "VALIDATION"
  /** The mapping is not valid WebAssembly. */
  | "WASM"
  /** No Ethereum RPC serves the manifest's network. */
  | "NETWORK";

export class DeployError extends BaseError {
  override readonly name = "DeployError";
  declare readonly code: DeployErrorCode;

  constructor(code: DeployErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    // A manifest that fails these checks fails the same way every time.
    super(message, { ...options, code, deterministic: true });
  }
}
