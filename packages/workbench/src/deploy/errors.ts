import { BaseError, type BaseErrorOptions } from "../lib/errors.js";
import { maskUrl } from "../lib/redact.js";

/** graph-cli's create or deploy failed; the message carries its output, the endpoint is masked. */
export class DeployError extends BaseError {
  override name = "DeployError";
  constructor(
    message: string,
    readonly endpoint: string,
  ) {
    super(message, { details: { endpoint: maskUrl(endpoint) } });
  }
}

/** A graph-cli build folder cannot be uploaded as it is: its manifest is unreadable or names a file it lacks. */
export class UploadBuildError extends BaseError {
  override name = "UploadBuildError";
}

/**
 * An IPFS API did not take an add: unreachable, refused, or answered no hash. The message and `endpoint`
 * carry the address masked, never its access key.
 */
export class IpfsAddError extends BaseError {
  override name = "IpfsAddError";
  /** The IPFS address, masked. */
  readonly endpoint: string;
  constructor(message: string, endpoint: string, options: Pick<BaseErrorOptions, "cause"> = {}) {
    const masked = maskUrl(endpoint);
    super(message, { ...options, details: { endpoint: masked } });
    this.endpoint = masked;
  }
}
