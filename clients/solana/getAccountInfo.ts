import type { JsonRpcClient, RequestOptions } from "subgraph-workbench/json-rpc";
import { accountConfig, type AccountConfigParameters } from "./accountConfig.js";
import { decodeAccount, splitRpcResponse, type AccountDataFor, type AccountEncoding, type AccountInfo, type RpcContext } from "./accountRecord.js";
import { assertPublicKey } from "./publicKey.js";

export type GetAccountInfoParameters<E extends AccountEncoding | undefined = undefined> = AccountConfigParameters<E> & {
  /** Base58 public key of the account. */
  address: string;
  request?: RequestOptions;
};

export type GetAccountInfoReturnType<E extends AccountEncoding | undefined = undefined> = {
  context: RpcContext;
  /** null when the account does not exist. */
  value: AccountInfo<AccountDataFor<E>> | null;
};

/**
 * Reads one account.
 * - JSON-RPC method: `getAccountInfo`
 * - Node errors (-32600 base58 over 128 bytes, -32602 bad params) are thrown with the node's text.
 */
export async function getAccountInfo<E extends AccountEncoding | undefined = undefined>(
  client: JsonRpcClient,
  params: GetAccountInfoParameters<E>,
): Promise<GetAccountInfoReturnType<E>> {
  assertPublicKey(params.address);
  const config = accountConfig(params);
  const result = await client.request("getAccountInfo", config ? [params.address, config] : [params.address], params.request);
  const { context, value } = splitRpcResponse(result);
  return {
    context,
    value: value === null ? null : (decodeAccount(value) as AccountInfo<AccountDataFor<E>>),
  };
}
