// loadDeployment: a deployment from its manifest's IPFS hash — fetch, parse, resolve the linked schema,
// ABIs and mappings, validate, compile. Errors carry graph-node's registrar texts. Nothing is written.
import { getAddress } from "ethers/address";
import { parseManifestYaml } from "../../lib/manifestYaml.js";
import { IpfsError, type IpfsStore, parseIpfsPath } from "../ipfs/index.js";
import { parseSubgraphSchema, type SubgraphSchema } from "../../subgraph-schema/index.js";
import { DeployError } from "./errors.js";
import { readManifestShape, type RawDataSource, type RawFileTemplate, type RawManifest } from "./manifestShape.js";
import type { LoadDeploymentOptions, LoadedDataSource, LoadedDeployment, LoadedFileTemplate, LoadedMapping } from "./types.js";
import { resolveSubgraphDataSources } from "./subgraphSources.js";
import { validateMapping, compareVersions, minSpecVersion, parseVersion, resolveCallHandlers } from "./validateMapping.js";

/** graph-node's MIN_SPEC_VERSION and the GRAPH_MAX_SPEC_VERSION default. */
const MIN_SPEC_VERSION = "0.0.2";
const DEFAULT_MAX_SPEC_VERSION = "1.5.0";
/** The WASM host implements apiVersion 0.0.5 to 0.0.9 (graph-node v0.45's GRAPH_MAX_API_VERSION default). */
const DEFAULT_MAX_API_VERSION = "0.0.9";

interface Fetched {
  cid: string;
  bytes: Uint8Array;
}

function resolveError(message: string, code: "IPFS_NOT_FOUND" | "INVALID_HASH" | "RESOLVE", cause?: unknown): DeployError {
  return new DeployError(code, `subgraph resolve error: resolve error: ${message}`, cause === undefined ? {} : { cause });
}

/** Fetches a linked file (`/ipfs/<cid>`, `<cid>`) from the local store. */
async function fetchLink(ipfs: IpfsStore, link: string, what: string, cache: Map<string, Fetched>): Promise<Fetched> {
  const cached = cache.get(link);
  if (cached !== undefined) return cached;
  const path = link.startsWith("/ipfs/") ? link : `/ipfs/${link}`;
  let bytes: Uint8Array | null;
  let cid: string;
  try {
    cid = parseIpfsPath(path).root.toString();
    bytes = await ipfs.cat(path);
  } catch (error) {
    const reason = error instanceof IpfsError ? error.message : String(error);
    throw resolveError(`failed to resolve ${what}: '${path}' is not a valid IPFS content path: ${reason}`, "INVALID_HASH", error);
  }
  if (bytes === null) {
    throw resolveError(`failed to resolve ${what}: IPFS content from '${path.slice("/ipfs/".length)}' is not available: not in this node's IPFS store`, "IPFS_NOT_FOUND");
  }
  const fetched = { cid, bytes };
  cache.set(link, fetched);
  return fetched;
}

function utf8(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new DeployError("PARSE", `subgraph resolve error: parse error: ${what} is not UTF-8`, { cause: error });
  }
}

function parseManifest(text: string): RawManifest {
  let document: unknown;
  try {
    document = parseManifestYaml(text);
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new DeployError("PARSE", `subgraph resolve error: parse error: ${message}`, { cause: error });
  }
  return readManifestShape(document);
}

function checkSpecVersion(id: string, specVersion: string, max: string): void {
  const parsed = parseVersion(specVersion);
  if (parsed === null) {
    throw new DeployError("PARSE", `subgraph resolve error: parse error: specVersion: unexpected version \`${specVersion}\`, expected a semantic version`);
  }
  if (compareVersions(specVersion, MIN_SPEC_VERSION) < 0 || compareVersions(specVersion, max) > 0) {
    throw new DeployError(
      "VERSION",
      `subgraph resolve error: resolve error: This Graph Node only supports manifest spec versions between ${MIN_SPEC_VERSION} and ${max}, but subgraph \`${id}\` uses \`${specVersion}\``,
    );
  }
}

function parseAbi(bytes: Uint8Array, name: string): unknown[] {
  let json: unknown;
  try {
    json = JSON.parse(utf8(bytes, `ABI ${name}`));
  } catch (error) {
    if (error instanceof DeployError) throw error;
    throw resolveError(`failed to resolve ABI ${name}: invalid JSON: ${(error as Error).message}`, "RESOLVE", error);
  }
  // graph-node accepts a bare ABI array or an artifact with an `abi` field.
  if (Array.isArray(json)) return json;
  if (typeof json === "object" && json !== null && Array.isArray((json as { abi?: unknown }).abi)) return (json as { abi: unknown[] }).abi;
  throw resolveError(`failed to resolve ABI ${name}: expected a JSON array of ABI entries`, "RESOLVE");
}

async function compileWasm(bytes: Uint8Array, dsName: string, modules: Map<string, WebAssembly.Module>, cid: string): Promise<WebAssembly.Module> {
  const cached = modules.get(cid);
  if (cached !== undefined) return cached;
  try {
    const module = await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
    modules.set(cid, module);
    return module;
  } catch (error) {
    throw new DeployError("WASM", `subgraph validation error: [data source ${dsName} is invalid: mapping ${cid} is not valid WebAssembly: ${(error as Error).message}]`, {
      cause: error,
    });
  }
}

interface ResolveContext {
  ipfs: IpfsStore;
  files: Map<string, Fetched>;
  modules: Map<string, WebAssembly.Module>;
  network: string;
}

async function resolveMapping(ctx: ResolveContext, raw: RawDataSource): Promise<{ mapping: Omit<LoadedMapping, "eventHandlers" | "blockHandlers" | "callHandlers">; raw: RawDataSource }> {
  const abis: Record<string, unknown[]> = {};
  for (const abi of raw.mapping.abis) {
    abis[abi.name] = parseAbi((await fetchLink(ctx.ipfs, abi.file, `ABI ${abi.name}`, ctx.files)).bytes, abi.name);
  }
  const wasm = await fetchLink(ctx.ipfs, raw.mapping.file, `mapping ${raw.mapping.file}`, ctx.files);
  const wasmModule = await compileWasm(wasm.bytes, raw.name, ctx.modules, wasm.cid);
  return {
    raw,
    mapping: {
      kind: raw.kind,
      name: raw.name,
      network: raw.network ?? ctx.network,
      apiVersion: raw.mapping.apiVersion,
      entities: raw.mapping.entities,
      abis,
      abiName: raw.abi,
      wasmModule,
      wasmBytes: wasm.bytes,
      wasmCid: wasm.cid,
    },
  };
}

async function resolveFileTemplate(ctx: ResolveContext, raw: RawFileTemplate, schema: SubgraphSchema): Promise<LoadedFileTemplate> {
  const wasm = await fetchLink(ctx.ipfs, raw.mapping.file, `mapping ${raw.mapping.file}`, ctx.files);
  return {
    kind: "file/ipfs",
    name: raw.name,
    network: raw.network ?? ctx.network,
    apiVersion: raw.mapping.apiVersion,
    // graph-node drops (with a warning) entity types the schema does not have.
    entities: raw.mapping.entities.filter((e) => schema.entities.has(e)),
    handler: raw.mapping.handler,
    wasmModule: await compileWasm(wasm.bytes, raw.name, ctx.modules, wasm.cid),
    wasmBytes: wasm.bytes,
    wasmCid: wasm.cid,
  };
}

/** The single network of all data sources and templates; throws a validation error otherwise. */
function singleNetwork(manifest: RawManifest): string {
  const networks = new Set([...manifest.dataSources, ...manifest.templates, ...manifest.fileTemplates, ...manifest.subgraphDataSources].map((d) => d.network).filter((n): n is string => n !== null));
  if (networks.size > 1) throw validationError(["subgraph cannot index data from different Ethereum networks"]);
  const [network] = networks;
  if (network === undefined) throw validationError(["subgraph must have at least one Ethereum network data source"]);
  return network;
}

/** graph-node's per-feature specVersion minimums (resolve errors, checked before any file is read). */
function checkFeatureVersions(id: string, raw: RawManifest): void {
  const fail = (text: string): never => {
    throw new DeployError("VERSION", `subgraph resolve error: resolve error: ${text}`);
  };
  const spec = raw.specVersion;
  if (compareVersions(spec, "0.0.9") < 0 && raw.dataSources.some((d) => d.endBlock !== null)) fail("Defining `endBlock` in the manifest is not supported prior to 0.0.9");
  if (compareVersions(spec, "1.0.0") < 0 && raw.indexerHints !== null) fail("`indexerHints` are not supported prior to 1.0.0");
  for (const ds of raw.dataSources) {
    const min = minSpecVersion(ds);
    if (compareVersions(spec, min) < 0) fail(`Subgraph \`${id}\` uses spec version ${spec}, but data source \`${ds.name}\` requires at least version ${min}`);
  }
}

function validationError(messages: string[]): DeployError {
  return new DeployError("VALIDATION", `subgraph validation error: [${messages.join("; ")}]`, { details: { errors: messages } });
}

function normaliseAddress(address: string | null, dsName: string, errors: string[]): string | null {
  if (address === null) return null;
  const hex = address.startsWith("0x") || address.startsWith("0X") ? address.slice(2) : address;
  if (!/^[0-9a-fA-F]{40}$/.test(hex)) {
    errors.push(`data source ${dsName} is invalid: source.address \`${address}\` is not a 20-byte hex address`);
    return null;
  }
  // graph-node accepts any letter case; a mixed-case address that fails its checksum is still the address.
  try {
    return getAddress(`0x${hex.toLowerCase()}`).toLowerCase();
  } catch {
    return `0x${hex.toLowerCase()}`;
  }
}

/**
 * Loads and validates the deployment whose manifest has IPFS hash `hash`. Throws DeployError with
 * graph-node's message text; the store is never touched.
 */
export async function loadDeployment(ipfs: IpfsStore, hash: string, options: LoadDeploymentOptions = {}): Promise<LoadedDeployment> {
  const files = new Map<string, Fetched>();
  const manifestFile = await fetchLink(ipfs, hash, "manifest", files);
  const manifestYaml = utf8(manifestFile.bytes, "subgraph");
  const raw = parseManifest(manifestYaml);
  checkSpecVersion(hash, raw.specVersion, options.maxSpecVersion ?? DEFAULT_MAX_SPEC_VERSION);
  if (raw.dataSources.length === 0 && raw.subgraphDataSources.length === 0) throw validationError(["subgraph has no data sources"]);
  const network = singleNetwork(raw);
  if (options.supportsNetwork && !options.supportsNetwork(network)) {
    throw new DeployError("NETWORK", `network not supported by registrar: no network ${network} found on chain ethereum`);
  }
  checkFeatureVersions(hash, raw);

  const schemaSdl = utf8((await fetchLink(ipfs, raw.schemaFile, "schema", files)).bytes, "schema");
  let schema: SubgraphSchema;
  try {
    schema = parseSubgraphSchema(schemaSdl);
  } catch (error) {
    throw new DeployError("SCHEMA", `subgraph validation error: [schema validation failed: ${(error as Error).message}]`, { cause: error });
  }
  // graph-node: aggregations (and Int8 ids, which timeseries have) need specVersion 1.1.0.
  if (schema.aggregations.length > 0 && compareVersions(raw.specVersion, "1.1.0") < 0) {
    throw new DeployError("SCHEMA", `subgraph validation error: [schema validation failed: [Aggregations are not supported with spec version ${raw.specVersion}; please migrate the subgraph to the latest version]]`);
  }
  if (schema.fulltexts.length > 0 && !options.allowFulltextSearch) {
    throw new DeployError("FEATURES", "Fulltext search is not yet deterministic: graph-node refuses `@fulltext` unless GRAPH_ALLOW_NON_DETERMINISTIC_FULLTEXT_SEARCH=true is set, and so does this node");
  }
  // graph-node's feature validation: a feature the subgraph uses must be declared.
  for (const [feature, used] of [["fullTextSearch", schema.fulltexts.length > 0], ["grafting", raw.graft !== null]] as const) {
    if (used && !raw.features.includes(feature)) throw new DeployError("FEATURES", `The feature \`${feature}\` is used by the subgraph but it is not declared in the manifest.`);
  }

  const ctx: ResolveContext = { ipfs, files, modules: new Map(), network };
  const maxApiVersion = options.maxApiVersion ?? DEFAULT_MAX_API_VERSION;
  const errors: string[] = [];
  const dataSources: LoadedDataSource[] = [];
  for (const ds of raw.dataSources) {
    const { mapping } = await resolveMapping(ctx, ds);
    const eventHandlers = validateMapping(mapping, ds, { specVersion: raw.specVersion, maxApiVersion, schema }, errors);
    dataSources.push({
      ...mapping,
      eventHandlers,
      blockHandlers: ds.mapping.blockHandlers,
      callHandlers: resolveCallHandlers(mapping, ds, errors),
      address: normaliseAddress(ds.address, ds.name, errors),
      startBlock: ds.startBlock,
      endBlock: ds.endBlock,
      context: ds.context,
    });
  }
  const templates: LoadedMapping[] = [];
  for (const t of raw.templates) {
    const { mapping } = await resolveMapping(ctx, t);
    templates.push({
      ...mapping,
      eventHandlers: validateMapping(mapping, t, { specVersion: raw.specVersion, maxApiVersion, schema, isTemplate: true }, errors),
      blockHandlers: t.mapping.blockHandlers,
      callHandlers: resolveCallHandlers(mapping, t, errors),
    });
  }
  const fileTemplates: LoadedFileTemplate[] = [];
  for (const t of raw.fileTemplates) {
    if (compareVersions(t.mapping.apiVersion, maxApiVersion) > 0) {
      errors.push(`The maximum supported mapping API version of this indexer is ${maxApiVersion}, but \`${t.mapping.apiVersion}\` was found`);
    }
    fileTemplates.push(await resolveFileTemplate(ctx, t, schema));
  }
  const subgraphDataSources = await resolveSubgraphDataSources(
    { id: hash, specVersion: raw.specVersion, network, hasOnchain: raw.dataSources.length + raw.templates.length > 0, cat: (link) => fetchLink(ipfs, link, `file ${link}`, files), compile: (bytes, name, cid) => compileWasm(bytes, name, ctx.modules, cid) },
    raw.subgraphDataSources,
  );
  const apiVersions = new Set([...dataSources, ...templates, ...fileTemplates, ...subgraphDataSources].map((d) => d.apiVersion));
  if (apiVersions.size > 1 && [...apiVersions].some((v) => compareVersions(v, "0.0.5") > 0)) {
    errors.push(`subgraph must use a single apiVersion across its data sources. Found: ${[...apiVersions].sort().join(", ")}`);
  }
  if (errors.length > 0) throw validationError(errors);

  return { id: manifestFile.cid, manifestYaml, specVersion: raw.specVersion, schemaSdl, schema, network, dataSources, templates, fileTemplates, subgraphDataSources, features: raw.features, indexerHints: raw.indexerHints, graft: raw.graft };
}
