// The engines bench:peers knows, by name: apart from their registry (engines.ts), which imports every
// engine's module, so that the report and the engines can name them without importing one another.
export const ENGINES = ["ours", "ponder", "graph-node", "subsquid", "envio"] as const;
export type EngineName = (typeof ENGINES)[number];
