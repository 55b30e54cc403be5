import { RpcClientError } from "subgraph-workbench/json-rpc";

/** A key that is not base58 for exactly 32 bytes; caught before anything is sent. */
export class InvalidPublicKeyError extends RpcClientError {
  override name = "InvalidPublicKeyError";
  readonly publicKey: string;

  constructor(publicKey: string, reason: string) {
    super(`Invalid public key: ${JSON.stringify(publicKey.slice(0, 64))}`, { detail: reason });
    this.publicKey = publicKey;
  }
}

/** The node answered with an account record this client cannot read. */
export class AccountDecodeError extends RpcClientError {
  override name = "AccountDecodeError";
}
