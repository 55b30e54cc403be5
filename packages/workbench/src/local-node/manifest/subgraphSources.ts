// Subgraph composition at deploy: each `kind: subgraph` data source's source deployment is read from
// IPFS (its manifest, schema and graft chain) and checked with graph-node's rules and messages
// (graph/src/data_source/subgraph.rs, data/subgraph/mod.rs): the source is on specVersion 1.3.0 or
// later, as is every graft base behind it; it has no subgraph data sources of its own; each handler's
// entity is an immutable entity type of the source's schema; at most 5 such data sources, none beside
// onchain ones, no source named twice. Whether the source is deployed here is checked when indexing
// starts, as graph-node's instance manager does.
import { parseManifestYaml } from "../../lib/manifestYaml.js";
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import { DeployError } from "./errors.js";
import type { RawSubgraphDataSource } from "./subgraphSourceShape.js";
import type { LoadedSubgraphDataSource } from "./types.js";
import { compareVersions } from "./validateMapping.js";

const MIN_SOURCE_SPEC_VERSION = "1.3.0";
const MAX_SUBGRAPH_DATA_SOURCES = 5;

export interface SubgraphSourceContext {
  /** The composed deployment's id (for messages). */
  id: string;
  specVersion: string;
  network: string;
  /** The manifest has ethereum (onchain) data sources or templates too. */
  hasOnchain: boolean;
  /** Reads a linked file (`/ipfs/<cid>` or `<cid>`); throws when it is not there. */
  cat(link: string): Promise<{ cid: string; bytes: Uint8Array }>;
  compile(bytes: Uint8Array, dsName: string, cid: string): Promise<WebAssembly.Module>;
}

type Obj = Record<string, unknown>;

function resolveError(text: string): DeployError {
  return new DeployError("RESOLVE", `subgraph resolve error: resolve error: ${text}`);
}

function linkText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null && typeof (value as Obj)["/"] === "string") return (value as Obj)["/"] as string;
  return null;
}

/** A manifest read only as far as composition needs: specVersion, schema link, data source kinds, graft base. */
interface SourceManifest {
  specVersion: string;
  schemaLink: string | null;
  kinds: string[];
  graftBase: string | null;
}

async function readSourceManifest(ctx: SubgraphSourceContext, hash: string, what: string): Promise<SourceManifest> {
  let bytes: Uint8Array;
  try {
    bytes = (await ctx.cat(hash)).bytes;
  } catch (error) {
    throw resolveError(`Failed to resolve ${what}: ${(error as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseManifestYaml(new TextDecoder().decode(bytes));
  } catch (error) {
    throw resolveError(`Failed to parse ${what} as YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw resolveError(`Failed to parse ${what} as YAML: not a map`);
  const root = doc as Obj;
  const spec = root.specVersion;
  const graft = root.graft as Obj | undefined;
  return {
    specVersion: typeof spec === "string" || typeof spec === "number" ? String(spec) : "",
    schemaLink: linkText((root.schema as Obj | undefined)?.file),
    kinds: Array.isArray(root.dataSources) ? root.dataSources.map((d) => String((d as Obj | null)?.kind ?? "")) : [],
    graftBase: graft && typeof graft.base === "string" ? graft.base : null,
  };
}

/** graph-node's verify_graft_chain_sourcable: the source and each graft base behind it on 1.3.0 or later. */
async function checkGraftChain(ctx: SubgraphSourceContext, hash: string, manifest: SourceManifest): Promise<void> {
  const chain: string[] = [];
  let current: { hash: string; manifest: SourceManifest } | null = { hash, manifest };
  while (current) {
    chain.push(current.hash);
    if (compareVersions(current.manifest.specVersion, MIN_SOURCE_SPEC_VERSION) < 0) {
      throw resolveError(
        `Subgraph with a spec version ${current.manifest.specVersion} is not supported for a subgraph source, minimum supported version is ${MIN_SOURCE_SPEC_VERSION}. Graft chain: ${chain.join(" -> ")}`,
      );
    }
    const base: string | null = current.manifest.graftBase;
    current = base === null ? null : { hash: base, manifest: await readSourceManifest(ctx, base, "graft base manifest") };
  }
}

async function checkEntities(ctx: SubgraphSourceContext, raw: RawSubgraphDataSource, manifest: SourceManifest): Promise<string> {
  const what = `source subgraph [${raw.source}] manifest`;
  if (manifest.schemaLink === null) throw resolveError(`Failed to resolve ${what}: the manifest names no schema file`);
  let sdl: string;
  try {
    sdl = new TextDecoder().decode((await ctx.cat(manifest.schemaLink)).bytes);
  } catch (error) {
    throw resolveError(`Failed to resolve ${what}: ${(error as Error).message}`);
  }
  const schema = parseSubgraphSchema(sdl);
  for (const { entity } of raw.mapping.handlers) {
    const type = schema.entities.get(entity);
    if (schema.interfaces.has(entity)) throw resolveError(`Entity ${entity} is an interface and cannot be used as a mapping entity`);
    if (schema.aggregations.some((a) => a.name === entity)) throw resolveError(`Entity ${entity} is an aggregation and cannot be used as a mapping entity`);
    if (!type) throw resolveError(`Entity ${entity} not found in source manifest`);
    if (!type.immutable) throw resolveError(`Entity ${entity} is not immutable and cannot be used as a mapping entity`);
  }
  return sdl;
}

async function resolveOne(ctx: SubgraphSourceContext, raw: RawSubgraphDataSource): Promise<LoadedSubgraphDataSource> {
  const manifest = await readSourceManifest(ctx, raw.source, `source subgraph [${raw.source}] manifest`);
  if (compareVersions(manifest.specVersion, MIN_SOURCE_SPEC_VERSION) < 0) {
    throw resolveError(`Source subgraph [${raw.source}] manifest spec version ${manifest.specVersion} is not supported, minimum supported version is ${MIN_SOURCE_SPEC_VERSION}`);
  }
  await checkGraftChain(ctx, raw.source, manifest);
  if (manifest.kinds.includes("subgraph")) throw resolveError(`Nested subgraph data sources [${raw.name}] are not supported.`);
  const sourceSchemaSdl = await checkEntities(ctx, raw, manifest);
  const wasm = await ctx.cat(raw.mapping.file);
  return {
    kind: "subgraph",
    name: raw.name,
    network: raw.network ?? ctx.network,
    apiVersion: raw.mapping.apiVersion,
    entities: raw.mapping.entities,
    source: raw.source,
    startBlock: raw.startBlock,
    handlers: raw.mapping.handlers,
    context: raw.context,
    sourceSchemaSdl,
    wasmModule: await ctx.compile(wasm.bytes, raw.name, wasm.cid),
    wasmBytes: wasm.bytes,
    wasmCid: wasm.cid,
  };
}

/** graph-node's validate_subgraph_datasources, first error only (as its resolve step reports it). */
function checkConstraints(ctx: SubgraphSourceContext, raws: RawSubgraphDataSource[]): void {
  const invalid = (text: string) => resolveError(`data source subgraph is invalid: ${text}`);
  if (compareVersions(ctx.specVersion, MIN_SOURCE_SPEC_VERSION) < 0) throw invalid(`Subgraph datasources are not supported prior to spec version ${MIN_SOURCE_SPEC_VERSION}`);
  if (raws.length > MAX_SUBGRAPH_DATA_SOURCES) throw invalid(`Cannot have more than ${MAX_SUBGRAPH_DATA_SOURCES} subgraph datasources`);
  if (ctx.hasOnchain) throw invalid("Subgraph datasources cannot be used alongside onchain datasources");
  const seen = new Set<string>();
  for (const raw of raws) {
    if (seen.has(raw.source)) throw invalid(`Multiple subgraph datasources cannot use the same source subgraph ${raw.source}`);
    seen.add(raw.source);
  }
}

/** Resolves and checks the manifest's subgraph data sources (none: nothing is read). */
export async function resolveSubgraphDataSources(ctx: SubgraphSourceContext, raws: RawSubgraphDataSource[]): Promise<LoadedSubgraphDataSource[]> {
  if (raws.length === 0) return [];
  const loaded: LoadedSubgraphDataSource[] = [];
  for (const raw of raws) loaded.push(await resolveOne(ctx, raw));
  checkConstraints(ctx, raws);
  return loaded;
}
