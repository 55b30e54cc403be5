export {
  storageRangeAt,
  DEFAULT_MAX_RESULTS,
  type StorageEntry,
  type StorageRangeAtParameters,
  type StorageRangeAtReturnType,
  type StorageRangeLogger,
} from "./storageRangeAt.js";
export { storageRangeAtResponse, STORAGE_RANGE_ERROR_CODE, type StorageRangeAtResponse } from "./storageRangeAtResponse.js";
export { storageRangePages, type StorageRangePagesParameters } from "./storageRangePages.js";
export { mappingSlot, type MappingKey } from "./mappingSlot.js";
export { parseStartKey, slotKey } from "./slotKey.js";
export { BlockFetchError, MappingKeyError, NodeConnectionError, StorageRangeError, StorageRangeParamsError } from "./errors.js";
