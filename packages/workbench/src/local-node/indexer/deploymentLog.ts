// The lines the node's log store keeps for a deployment (`_logs`), shaped as graph-node's subgraph
// logger writes them: a mapping's `log.*` call carries its data source as the one argument and the
// logger's context after the message; the node's own lines about the deployment go in as they are told.
import type { LogLevel } from "../../wasm-host/index.js";
import type { LogRecord, SubgraphLogLevel } from "../store/index.js";
import type { MappingLogOrigin } from "./hostProtocol.js";

/** slog's names, which graph-node's log store keeps: `warning` is slog's `warn`. */
export function storedLevel(level: LogLevel): SubgraphLogLevel {
  return level === "warning" ? "warn" : level;
}

/**
 * A mapping's line: graph-node logs it with `data_source` as its argument, under a logger whose context
 * (the component, the block) its log store appends to the text after the arguments.
 */
export function mappingLogRecord(level: LogLevel, message: string, origin: MappingLogOrigin): LogRecord {
  const context = [`data_source: ${origin.dataSource}`, "component: UserMapping"];
  if (origin.block) context.push(`block_hash: ${origin.block.hash}`, `block_number: ${origin.block.number}`);
  return {
    level: storedLevel(level),
    text: `${message}, ${context.join(", ")}`,
    arguments: [["data_source", origin.dataSource]],
    // graph-node reports the Rust module of its log call; this is the module graph-node names for these lines.
    module: "graph_runtime_wasm::host_exports",
  };
}

/** One of the node's own lines about the deployment. */
export function nodeLogRecord(level: LogLevel, message: string): LogRecord {
  return { level: storedLevel(level), text: message, module: "local-node/indexer" };
}
