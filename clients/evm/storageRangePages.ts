import type { JsonRpcClient } from "subgraph-workbench/json-rpc";
import { storageRangeAt, type StorageRangeAtParameters, type StorageRangeAtReturnType } from "./storageRangeAt.js";

export type StorageRangePagesParameters = Omit<StorageRangeAtParameters, "startKey"> & {
  /** Where the walk begins; slot 0 unless set. */
  startKey?: StorageRangeAtParameters["startKey"];
};

/**
 * Pages through a contract's storage at one block, feeding each page's `nextKey` back as the next
 * `startKey`; ends after the first page that is not full (nextKey null).
 */
export async function* storageRangePages(
  client: JsonRpcClient,
  params: StorageRangePagesParameters,
): AsyncGenerator<StorageRangeAtReturnType, void, undefined> {
  let startKey: StorageRangeAtParameters["startKey"] | null = params.startKey ?? "0x0";
  while (startKey !== null) {
    const page: StorageRangeAtReturnType = await storageRangeAt(client, { ...params, startKey });
    yield page;
    startKey = page.nextKey;
  }
}
