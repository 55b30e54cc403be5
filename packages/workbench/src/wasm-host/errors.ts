// Error tree of the WASM host. Every error says whether it is deterministic (graph-node's split:
// a deterministic error fails the subgraph for good; a non-deterministic one may be retried).
import { BaseError } from "../lib/errors.js";

/** Where an AssemblyScript `abort(message, file, line, column)` happened. */
export interface AbortInfo {
  message: string | null;
  file: string | null;
  line: number;
  column: number;
}

export type HostErrorCode =
  | "ABORT"
  | "CRITICAL_LOG"
  | "STORE"
  | "SCHEMA"
  | "IMMUTABLE"
  | "ARITHMETIC"
  | "CONVERSION"
  | "JSON"
  | "YAML"
  | "IPFS"
  | "ETHEREUM"
  | "DATA_SOURCE"
  | "TRAP"
  | "LINK"
  | "MEMORY"
  | "UNSUPPORTED";

export interface HostErrorOptions {
  deterministic?: boolean;
  handler?: string | null;
  abort?: AbortInfo;
  cause?: unknown;
  details?: Record<string, unknown>;
}

/** Base of every host error. `message` is short; `details` carries what a user needs to fix it. */
export class HostError extends BaseError {
  override readonly name: string = "HostError";
  declare readonly code: HostErrorCode;
  declare readonly deterministic: boolean;
  /** The export (handler) that was running, when known. */
  handler: string | undefined;
  readonly abort: AbortInfo | undefined;

  constructor(code: HostErrorCode, message: string, options: HostErrorOptions = {}) {
    const { handler, abort, ...rest } = options;
    super(message, { ...rest, code, deterministic: options.deterministic ?? true });
    this.handler = handler ?? undefined;
    this.abort = abort;
  }
}

/** The module called `abort` (an AssemblyScript `assert`/`throw`, or a failed graph-ts check). */
export class HostAbortError extends HostError {
  override readonly name = "HostAbortError";
  constructor(abort: AbortInfo, handler: string | null) {
    // graph-node's wording: "Mapping aborted at <file>, line <l>, column <c>, with message: <m>".
    // A zero line or column means "unknown", as in graph-node.
    const location =
      abort.file === null
        ? "an unknown location"
        : abort.line === 0
          ? abort.file
          : abort.column === 0
            ? `${abort.file}, line ${abort.line}`
            : `${abort.file}, line ${abort.line}, column ${abort.column}`;
    const message = abort.message === null ? "no message" : `message: ${abort.message}`;
    super("ABORT", `Mapping aborted at ${location}, with ${message}`, { abort, handler });
  }
}

/** Unknown host imports or a module that does not fit the host (graph-node fails at instantiation too). */
export class HostLinkError extends HostError {
  override readonly name = "HostLinkError";
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("LINK", message, { details });
  }
}
