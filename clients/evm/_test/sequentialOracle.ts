// The test oracle: a straightforward, one-request-per-slot implementation of the spec's steps 1-11,
// shaped like the reference script (connection check, block by hash, then slots at the block's number).
import type { JsonRpcClient } from "subgraph-workbench/json-rpc";
import { ConnectionError, RpcClientError } from "subgraph-workbench/json-rpc";
import type { StorageRangeLogger } from "../storageRangeAt.js";
import type { StorageRangeAtResponse } from "../storageRangeAtResponse.js";

export type OracleParameters = {
  blockHash: string;
  txIndex?: number;
  address: string;
  startKey: string;
  maxResults?: number;
  logger: StorageRangeLogger;
};

const reasonOf = (error: unknown) => (error instanceof RpcClientError ? error.shortMessage : String(error));

export async function sequentialStorageRange(client: JsonRpcClient, params: OracleParameters): Promise<StorageRangeAtResponse> {
  try {
    // 10. The connection check at start.
    try {
      await client.request("web3_clientVersion");
    } catch (error) {
      if (error instanceof ConnectionError) throw new Error("Failed to connect to Ethereum node");
    }
    const maxResults = params.maxResults ?? 10;
    // 2. The block by hash.
    let blockNumber: string;
    try {
      const block = await client.request<{ number: string } | null>("eth_getBlockByHash", [params.blockHash, false]);
      if (!block) throw new Error(`Block with id: '${params.blockHash}' not found.`);
      blockNumber = block.number;
    } catch (error) {
      throw new Error(`Failed to get block: ${error instanceof Error && !(error instanceof RpcClientError) ? error.message : reasonOf(error)}`);
    }
    // 3-7. One slot at a time at the block's number.
    const storage: Record<string, { key: null; value: string }> = {};
    let slot = BigInt(params.startKey.startsWith("0x") ? params.startKey : `0x${params.startKey}`);
    let found = 0;
    let attempts = 0;
    while (found < maxResults && attempts < 10 * maxResults) {
      const key = `0x${slot.toString(16)}`;
      try {
        const value = (await client.request<string>("eth_getStorageAt", [params.address, key, blockNumber])).toLowerCase();
        if (BigInt(value) !== 0n) {
          storage[key] = { key: null, value: `0x${value.slice(2).padStart(64, "0")}` };
          found++;
        }
      } catch (error) {
        params.logger.warn(`Warning: failed to read slot ${key}: ${reasonOf(error)}`);
      }
      attempts++;
      slot++;
    }
    return { jsonrpc: "2.0", id: 1, result: { storage, nextKey: found === maxResults ? `0x${slot.toString(16)}` : null } };
  } catch (error) {
    return { jsonrpc: "2.0", id: 1, error: { code: -32000, message: (error as Error).message } };
  }
}
