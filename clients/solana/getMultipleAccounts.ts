import type { JsonRpcClient, RequestOptions } from "subgraph-workbench/json-rpc";
import { AccountDecodeError } from "./errors.js";
import { accountConfig, type AccountConfigParameters } from "./accountConfig.js";
import { decodeAccount, splitRpcResponse, type AccountDataFor, type AccountEncoding, type AccountInfo, type RpcContext } from "./accountRecord.js";
import { assertPublicKey } from "./publicKey.js";

/** Agave's MAX_MULTIPLE_ACCOUNTS: more keys in one call is -32602 "Too many inputs provided; max 100". */
export const MAX_ACCOUNTS_PER_REQUEST = 100;

export type GetMultipleAccountsParameters<E extends AccountEncoding | undefined = undefined> = AccountConfigParameters<E> & {
  /** Base58 public keys; any number, split into requests of `chunkSize`. */
  addresses: readonly string[];
  /** Keys per request; 100 unless set. */
  chunkSize?: number;
  request?: RequestOptions;
};

export type GetMultipleAccountsReturnType<E extends AccountEncoding | undefined = undefined> = {
  /** With several chunks: the lowest slot among them (every value is at least that recent). */
  context: RpcContext;
  /** One entry per requested key, in request order; null where the account does not exist. */
  value: (AccountInfo<AccountDataFor<E>> | null)[];
};

/**
 * Reads many accounts. Keys are validated first; more than `chunkSize` keys go out as concurrent requests
 * whose answers are merged in request order.
 * - JSON-RPC method: `getMultipleAccounts`
 */
export async function getMultipleAccounts<E extends AccountEncoding | undefined = undefined>(
  client: JsonRpcClient,
  params: GetMultipleAccountsParameters<E>,
): Promise<GetMultipleAccountsReturnType<E>> {
  for (const address of params.addresses) assertPublicKey(address);
  const chunkSize = params.chunkSize ?? MAX_ACCOUNTS_PER_REQUEST;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError("chunkSize must be a positive integer");
  const config = accountConfig(params);
  const chunks: (readonly string[])[] = [];
  for (let i = 0; i < params.addresses.length; i += chunkSize) chunks.push(params.addresses.slice(i, i + chunkSize));
  // An empty list still asks the node, which answers with its slot and [].
  if (chunks.length === 0) chunks.push([]);

  const answers = await Promise.all(
    chunks.map(async (keys) => {
      const result = await client.request("getMultipleAccounts", config ? [keys, config] : [keys], params.request);
      const { context, value } = splitRpcResponse(result);
      if (!Array.isArray(value) || value.length !== keys.length) {
        throw new AccountDecodeError("The node answered getMultipleAccounts with the wrong number of accounts", {
          detail: `asked for ${keys.length}, got ${Array.isArray(value) ? value.length : "no array"}`,
        });
      }
      return { context, value: value.map((v: unknown) => (v === null ? null : decodeAccount(v))) };
    }),
  );
  const context = answers.reduce((lowest, a) => (a.context.slot < lowest.slot ? a.context : lowest), answers[0]!.context);
  return {
    context,
    value: answers.flatMap((a) => a.value) as (AccountInfo<AccountDataFor<E>> | null)[],
  };
}
