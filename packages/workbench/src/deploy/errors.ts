import { BaseError } from "../lib/errors.js";
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
