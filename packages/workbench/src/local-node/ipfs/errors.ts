// Errors of the local IPFS store and its RPC server. The server answers them in Kubo's JSON shape
// (`{"Message","Code","Type":"error"}`); `kuboCode` is Kubo's cmds error code (0 normal, 1 client).
import { BaseError } from "../../lib/errors.js";

export interface IpfsErrorOptions {
  cause?: unknown;
  details?: Record<string, unknown>;
}

/** Base of every IPFS error: a short message plus the details a user needs. */
export class IpfsError extends BaseError {
  override readonly name: string = "IpfsError";
  /** Kubo's error code in the JSON body: 0 = server-side ("normal"), 1 = bad request ("client"). */
  readonly kuboCode: 0 | 1;
  /** HTTP status Kubo uses for this kind of error. */
  readonly httpStatus: number;

  constructor(message: string, kuboCode: 0 | 1, httpStatus: number, options: IpfsErrorOptions = {}) {
    super(message, options);
    this.kuboCode = kuboCode;
    this.httpStatus = httpStatus;
  }
}

/** The content (or a block of it) is not in the local store; this node never fetches from a network. */
export class IpfsNotFoundError extends IpfsError {
  override readonly name = "IpfsNotFoundError";
  constructor(cid: string, options: IpfsErrorOptions = {}) {
    // Kubo's wording when offline: "block was not found locally (offline): ipld: could not find <cid>".
    super(`block was not found locally (offline): ipld: could not find ${cid}`, 0, 500, {
      ...options,
      details: { cid, ...options.details },
    });
  }
}

/** A CID or /ipfs/ path that does not parse, or a path into something that is not a directory. */
export class IpfsPathError extends IpfsError {
  override readonly name = "IpfsPathError";
  constructor(message: string, options: IpfsErrorOptions = {}) {
    super(message, 0, 500, options);
  }
}

/** A request the RPC API rejects before doing anything (missing argument, bad multipart body). */
export class IpfsRequestError extends IpfsError {
  override readonly name = "IpfsRequestError";
  constructor(message: string, options: IpfsErrorOptions = {}) {
    super(message, 1, 400, options);
  }
}
