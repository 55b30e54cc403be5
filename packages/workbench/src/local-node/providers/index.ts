// A network's providers: error kinds from providers' real answers, per-provider limits and health, the pool
// that spreads requests over them, and graph-node's config.toml providers.
export { classifyRpcError, retryAfterMs, suggestedRange, type Classified, type ErrorKind } from "./errorKinds.js";
export { createLimiter, type Limiter, type LimiterOptions } from "./limiter.js";
export type { ProviderSpec, ProviderStatus, ProviderState } from "./provider.js";
export { createProviderPool, ProvidersUnavailableError, type PoolCall, type PoolStats, type ProviderPool, type ProviderPoolOptions } from "./providerPool.js";
export { DEFAULT_FEATURES, ProviderConfigError, expandEnv, readGraphNodeConfig, type NetworkProviders } from "./graphNodeConfig.js";
