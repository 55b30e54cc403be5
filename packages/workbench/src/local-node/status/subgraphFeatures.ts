// The status API's subgraphFeatures(subgraphId): what a deployment's manifest and schema use, as
// graph-node keeps it at deploy time (DeploymentFeatures) and its resolver completes it. Read from the
// manifest as deployed, data-driven: any data source kind (and its templates') shows up as written, and
// its handler kinds follow from the mapping's handler lists, so a new kind needs no change here.
import { parse as parseYaml } from "yaml";
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";

export interface SubgraphFeatures {
  __typename: "SubgraphFeatures";
  apiVersion: string | null;
  specVersion: string;
  features: string[];
  dataSources: string[];
  handlers: string[];
  network: string | null;
}

/** graph-node's SubgraphFeature in its declaration order (a manifest's features come back in that order). */
const FEATURE_ORDER = ["nonFatalErrors", "grafting", "fullTextSearch", "aggregations", "bytesAsIds", "declaredEthCalls", "immutableEntities", "ipfsOnEthereumContracts"];
/** The manifest's older name for ipfsOnEthereumContracts. */
const FEATURE_ALIASES: Record<string, string> = { nonDeterministicIpfs: "ipfsOnEthereumContracts" };

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);
const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * A data source's (or template's) handler kinds: graph-node's names. File data sources are "offchain",
 * a `kind: subgraph` source's handlers "entity"; an on-chain one has event, call and block handlers,
 * a block handler's filter naming its kind (block_filter_call, block_filter_once, block_filter_polling).
 */
function handlerKinds(source: Raw): string[] {
  const kind = String(source.kind ?? "");
  const mapping = isObject(source.mapping) ? source.mapping : {};
  if (kind.startsWith("file/")) return ["offchain"];
  if (kind === "subgraph") return ["entity"];
  const kinds: string[] = [];
  if (listOf(mapping.eventHandlers).length > 0) kinds.push("event");
  if (listOf(mapping.callHandlers).length > 0) kinds.push("call");
  for (const handler of listOf(mapping.blockHandlers)) {
    const filter = isObject(handler) && isObject(handler.filter) ? String(handler.filter.kind ?? "") : "";
    kinds.push(filter ? `block_filter_${filter}` : "block");
  }
  return kinds;
}

/** graph-node's unified mapping API version: the lowest one, or none when all are below 0.0.5. */
function unifiedApiVersion(versions: string[]): string | null {
  const parse = (v: string) => v.split(".").map((n) => Number.parseInt(n, 10) || 0);
  const compare = (a: string, b: string) => {
    const [x, y] = [parse(a), parse(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  };
  const unique = [...new Set(versions)].sort(compare);
  if (unique.length === 0 || unique.every((v) => compare(v, "0.0.5") < 0)) return null;
  return unique[0] ?? null;
}

export function subgraphFeatures(manifestYaml: string, schemaSdl: string, network: string): SubgraphFeatures {
  const manifest: unknown = parseYaml(manifestYaml);
  const m = isObject(manifest) ? manifest : {};
  const sources = listOf(m.dataSources).filter(isObject);
  const templates = listOf(m.templates).filter(isObject);
  const all = [...sources, ...templates];
  const declared = new Set(listOf(m.features).map((f) => FEATURE_ALIASES[String(f)] ?? String(f)));
  const features = FEATURE_ORDER.filter((f) => declared.has(f));

  // What graph-node's resolver adds from the manifest and schema, in its order.
  const hasDeclaredCalls = sources.some((s) => isObject(s.mapping) && listOf(s.mapping.eventHandlers).some((h) => isObject(h) && isObject(h.calls) && Object.keys(h.calls).length > 0));
  const schema = parseSubgraphSchema(schemaSdl);
  const entities = [...schema.entities.values()];
  if (hasDeclaredCalls) features.push("declaredEthCalls");
  if (schema.aggregations.length > 0) features.push("aggregations");
  if (entities.some((e) => e.immutable)) features.push("immutableEntities");
  if (entities.some((e) => e.idKind === "Bytes")) features.push("bytesAsIds");

  const apiVersions = all.map((s) => (isObject(s.mapping) ? String(s.mapping.apiVersion ?? "") : "")).filter((v) => v !== "");
  const sourceNetwork = sources.find((s) => typeof s.network === "string")?.network;
  return {
    __typename: "SubgraphFeatures",
    apiVersion: unifiedApiVersion(apiVersions),
    specVersion: String(m.specVersion ?? ""),
    features,
    // graph-node collects both through hash sets, in no order; sorted here.
    dataSources: [...new Set(all.map((s) => String(s.kind ?? "")))].sort(),
    // graph-node's handler kinds are the data sources' only, not the templates'.
    handlers: [...new Set(sources.flatMap(handlerKinds))].sort(),
    network: typeof sourceNetwork === "string" ? sourceNetwork : network,
  };
}
