// Semantic checks of one data source or template after its files are resolved: kinds, apiVersion,
// the ABI named by `source.abi`, each event in that ABI, each handler exported by the compiled wasm.
// Messages follow graph-node's (`data source <name> is invalid: ...`) and are collected, not thrown,
// so one deploy reports every problem at once.
import type { SubgraphSchema } from "../../subgraph-schema/index.js";
import { keccakText } from "../../lib/keccakText.js";
import { canonicalType, findAbiEvent, topic0Of } from "./abiEvents.js";
import { DeployError } from "./errors.js";
import type { RawDataSource } from "./manifestShape.js";
import type { AbiParam, LoadedCallHandler, LoadedEventHandler, LoadedMapping } from "./types.js";

const ETHEREUM_KINDS = ["ethereum", "ethereum/contract"];
const MIN_API_VERSION = "0.0.5";

/** [major, minor, patch] of a plain semantic version, or null. */
export function parseVersion(version: string): [number, number, number] | null {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version.trim());
  if (match === null) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a) ?? [0, 0, 0];
  const pb = parseVersion(b) ?? [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const d = pa[i]! - pb[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

export interface ValidationContext {
  specVersion: string;
  maxApiVersion: string;
  schema: SubgraphSchema;
  /** Templates get their address when created: block handlers need none in the manifest. */
  isTemplate?: boolean;
}

/** graph-node's block handler rules: an address, at most one handler per filter kind, no unfiltered with polling/once. */
function checkBlockHandlers(raw: RawDataSource, isTemplate: boolean, invalid: (message: string) => void): void {
  const handlers = raw.mapping.blockHandlers;
  if (!isTemplate && raw.address === null && (handlers.length > 0 || raw.mapping.callHandlers.length > 0)) {
    invalid("source address is required if data source has call or block handlers");
  }
  const count = (kind: string | null) => handlers.filter((h) => (h.filter?.kind ?? null) === kind).length;
  const plain = count(null);
  if (plain > 0 && (count("polling") > 0 || count("once") > 0)) invalid("data source has a combination of filtered and non-filtered block handlers that is not allowed");
  if ([plain, count("call"), count("once"), count("polling")].some((n) => n > 1)) invalid("data source has duplicated block handlers");
}

/** The lowest specVersion a data source's features need (graph-node's `min_spec_version`). */
export function minSpecVersion(raw: RawDataSource): string {
  let min = "0.0.2";
  if (raw.mapping.blockHandlers.some((h) => h.filter?.kind === "polling" || h.filter?.kind === "once")) min = "0.0.8";
  if (raw.mapping.eventHandlers.some((h) => h.topic1 !== null || h.topic2 !== null || h.topic3 !== null)) min = "1.2.0";
  return min;
}

function exportedFunctions(module: WebAssembly.Module): Set<string> {
  return new Set(WebAssembly.Module.exports(module).filter((e) => e.kind === "function").map((e) => e.name));
}

/**
 * The call handlers resolved against the data source's ABI: graph-node looks the function up among
 * the payable and nonpayable ones by `name(type,...)` (it fails when the call comes; here at deploy).
 */
export function resolveCallHandlers(mapping: Pick<LoadedMapping, "abis" | "wasmModule" | "wasmCid">, raw: RawDataSource, errors: string[]): LoadedCallHandler[] {
  const abi = mapping.abis[raw.abi] ?? [];
  const exports = exportedFunctions(mapping.wasmModule);
  const out: LoadedCallHandler[] = [];
  for (const h of raw.mapping.callHandlers) {
    if (!exports.has(h.handler)) errors.push(`data source ${raw.name} is invalid: call handler \`${h.handler}\` is not exported by the mapping ${mapping.wasmCid}`);
    const abiFunction = abi.find((entry): entry is Record<string, unknown> => isCallableFunction(entry) && functionSignature(entry) === h.function);
    if (!abiFunction) {
      errors.push(`data source ${raw.name} is invalid: Function with the signature "${h.function}" not found in contract "${raw.abi}" of data source "${raw.name}"`);
      continue;
    }
    out.push({ function: h.function, handler: h.handler, selector: keccakText(h.function).slice(0, 10).toLowerCase(), abiFunction });
  }
  return out;
}

function isCallableFunction(entry: unknown): entry is Record<string, unknown> & { name: string; inputs: AbiParam[] } {
  if (typeof entry !== "object" || entry === null) return false;
  const e = entry as Record<string, unknown>;
  const mutability = e.stateMutability ?? (e.constant === true ? "view" : e.payable === true ? "payable" : "nonpayable");
  return e.type === "function" && typeof e.name === "string" && Array.isArray(e.inputs) && (mutability === "payable" || mutability === "nonpayable");
}

function functionSignature(entry: { name: string; inputs: AbiParam[] }): string {
  return `${entry.name}(${entry.inputs.map(canonicalType).join(",")})`;
}

/** Validates `mapping` (resolved from `raw`); pushes messages to `errors`; answers the resolved handlers. */
export function validateMapping(
  mapping: Omit<LoadedMapping, "eventHandlers" | "blockHandlers" | "callHandlers">,
  raw: RawDataSource,
  ctx: ValidationContext,
  errors: string[],
): LoadedEventHandler[] {
  const invalid = (message: string): void => {
    errors.push(`data source ${raw.name} is invalid: ${message}`);
  };
  if (!ETHEREUM_KINDS.includes(raw.kind)) invalid(`data source has invalid \`kind\`, expected \`ethereum\` but found ${raw.kind}`);
  if (raw.mapping.kind !== "ethereum/events") invalid(`mapping kind \`${raw.mapping.kind}\` is not supported, expected \`ethereum/events\``);
  if (raw.mapping.language !== "wasm/assemblyscript") invalid(`mapping language \`${raw.mapping.language}\` is not supported, expected \`wasm/assemblyscript\``);

  const apiVersion = raw.mapping.apiVersion;
  if (parseVersion(apiVersion) === null) {
    throw new DeployError("PARSE", `subgraph resolve error: parse error: mapping.apiVersion: unexpected version \`${apiVersion}\` of data source ${raw.name}`);
  }
  if (compareVersions(apiVersion, ctx.maxApiVersion) > 0) {
    throw new DeployError(
      "VERSION",
      `subgraph resolve error: resolve error: The maximum supported mapping API version of this indexer is ${ctx.maxApiVersion}, but \`${apiVersion}\` was found`,
    );
  }
  if (compareVersions(apiVersion, MIN_API_VERSION) < 0) {
    throw new DeployError(
      "VERSION",
      `subgraph resolve error: resolve error: mapping apiVersion \`${apiVersion}\` of data source ${raw.name} is older than ${MIN_API_VERSION}, the oldest this node's WASM host runs`,
    );
  }

  checkBlockHandlers(raw, ctx.isTemplate === true, invalid);

  // `mapping.entities` is documentation to graph-node: it checks no name in it (real subgraphs list
  // plurals and types long gone), so neither does this node.

  if (compareVersions(ctx.specVersion, "1.2.0") < 0 && raw.mapping.eventHandlers.some((h) => Object.keys(h.calls).length > 0)) {
    const h = raw.mapping.eventHandlers.find((x) => Object.keys(x.calls).length > 0)!;
    invalid(`handler ${h.event}: declaring eth calls on handlers is only supported for specVersion >= 1.2.0`);
  }
  for (const h of raw.mapping.blockHandlers) {
    if (!exportedFunctions(mapping.wasmModule).has(h.handler)) invalid(`block handler \`${h.handler}\` is not exported by the mapping ${mapping.wasmCid}`);
  }

  const abi = mapping.abis[raw.abi];
  if (abi === undefined) invalid(`No ABI entry with name \`${raw.abi}\` found`);
  const exports = exportedFunctions(mapping.wasmModule);
  const handlers: LoadedEventHandler[] = [];
  for (const h of raw.mapping.eventHandlers) {
    if (h.receipt && compareVersions(apiVersion, "0.0.7") < 0) {
      invalid("data source has event handlers that require transaction receipts, but this is only supported for apiVersion >= 0.0.7");
    }
    if (!exports.has(h.handler)) {
      invalid(`event handler \`${h.handler}\` for \`${h.event}\` is not exported by the mapping ${mapping.wasmCid}`);
    }
    const abiEvent = abi === undefined ? null : findAbiEvent(abi, h.event);
    if (abi !== undefined && abiEvent === null) invalid(`event \`${h.event}\` of handler \`${h.handler}\` not found in ABI \`${raw.abi}\``);
    if (abiEvent === null) continue;
    handlers.push({
      event: h.event,
      handler: h.handler,
      topic0: h.topic0 ?? topic0Of(h.event),
      topic1: h.topic1,
      topic2: h.topic2,
      topic3: h.topic3,
      receipt: h.receipt,
      abiEvent,
    });
  }
  return handlers;
}
