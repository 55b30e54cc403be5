import type { JsonRpcClient } from "subgraph-workbench/json-rpc";
import { storageRangeAt, type StorageRangeAtParameters, type StorageRangeAtReturnType } from "./storageRangeAt.js";

/** The emulation's failures all use the generic server error code. */
export const STORAGE_RANGE_ERROR_CODE = -32000;

export type StorageRangeAtResponse =
  | { jsonrpc: "2.0"; id: 1; result: StorageRangeAtReturnType }
  | { jsonrpc: "2.0"; id: 1; error: { code: typeof STORAGE_RANGE_ERROR_CODE; message: string } };

/**
 * storageRangeAt with its answer wrapped as a JSON-RPC response, the way the reference script prints it:
 * `{jsonrpc: "2.0", id: 1, result}`, or `{..., error: {code: -32000, message}}` for any failure.
 */
export async function storageRangeAtResponse(client: JsonRpcClient, params: StorageRangeAtParameters): Promise<StorageRangeAtResponse> {
  try {
    return { jsonrpc: "2.0", id: 1, result: await storageRangeAt(client, params) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { jsonrpc: "2.0", id: 1, error: { code: STORAGE_RANGE_ERROR_CODE, message } };
  }
}
