// Public API of the subgraph WASM host. Explicit exports only.
export { instantiateSubgraph } from "./instance.js";
export { withMemoryMaximum, WASM_PAGE_BYTES } from "./memoryMaximum.js";
export { compileWithReusableMemory } from "./reusableMemory.js";
export { createMemoryEntityStore } from "./store/memoryEntityStore.js";
export { createHostStore } from "./store/hostStore.js";
export { wrapHostStore, type HostStoreOverrides } from "./store/wrapHostStore.js";
export type { MemoryEntityStore } from "./store/memoryEntityStore.js";
export { HostError, HostAbortError, HostLinkError } from "./errors.js";
export type { AbortInfo, HostErrorCode } from "./errors.js";
export { TypeId, EthereumValueKind, JsonValueKind } from "./abi/typeIds.js";
export type { AscCodec } from "./abi/codec.js";
export type { JsonValue } from "./abi/json.js";
export type { HostStore } from "./store/hostStore.js";
export type { BigDecimalValue } from "./values/bigDecimalMath.js";
// graph-node's value semantics on plain JS values, for consumers that compare or print them.
export {
  fromString as parseBigDecimal,
  toString as formatBigDecimal,
  normalize as normalizeBigDecimal,
  dividedBy as divideBigDecimal,
} from "./values/bigDecimalMath.js";
export { ethereumEncode, ethereumDecode } from "./host/ethereum.js";
export { toEthersValue } from "./values/ethereumValue.js";
export { AbiArgumentError, fitCallArguments } from "./values/abiArguments.js";
export { nibble } from "./values/hex.js";
export { bigIntToHex, bytesToString } from "./host/typeConversion.js";
export { StoreValueKind, entityDataEqual } from "./values/storeValue.js";
export type {
  ApiVersion,
  BigIntLike,
  BlockPtr,
  BytesLike,
  DataSourceInfo,
  EntityChange,
  EntityData,
  EntityStoreBackend,
  EthereumBlockInput,
  EthereumCallInput,
  EthereumCallRequest,
  EthereumEventInput,
  EthereumLogInput,
  EthereumReceiptInput,
  EthereumTransactionInput,
  EthereumValue,
  EventParamInput,
  HostContext,
  HostOptions,
  LogLevel,
  StoreValue,
  SubgraphInstance,
} from "./types.js";
