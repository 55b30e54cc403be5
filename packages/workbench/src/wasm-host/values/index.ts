// The host's plain values for parts that need their semantics without the host itself (the
// proof-of-indexing hasher's thread hashes BigDecimals and loads neither WebAssembly nor ABI coding).
export { fromString as parseBigDecimal } from "./bigDecimalMath.js";
export type { BigDecimalValue } from "./bigDecimalMath.js";
