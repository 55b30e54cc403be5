import { RpcClientError } from "subgraph-workbench/json-rpc";

/** A storage-range failure; its message is the text the emulation reports under code -32000. */
export class StorageRangeError extends RpcClientError {
  override name = "StorageRangeError";
}

/** The block could not be read by its hash: `Failed to get block: <reason>`. */
export class BlockFetchError extends StorageRangeError {
  override name = "BlockFetchError";

  constructor(reason: string, cause?: unknown) {
    super(`Failed to get block: ${reason}`, { cause });
  }
}

/** Nothing answered at the start: `Failed to connect to Ethereum node`. */
export class NodeConnectionError extends StorageRangeError {
  override name = "NodeConnectionError";

  constructor(cause?: unknown) {
    super("Failed to connect to Ethereum node", { cause });
  }
}

/** Bad arguments to the emulation (start key, max_results). */
export class StorageRangeParamsError extends StorageRangeError {
  override name = "StorageRangeParamsError";
}

/** A mapping key of a type the slot helper does not take, or out of range. */
export class MappingKeyError extends RpcClientError {
  override name = "MappingKeyError";
}
