// The manifest's shape, checked field by field with serde-like messages (graph-node deserialises the
// YAML with serde: "missing field `file`", "invalid type: ..., expected a string"), before anything is
// fetched from IPFS. Links are `{'/': '/ipfs/<cid>'}` (what graph-cli uploads) or plain strings.
import { DeployError } from "./errors.js";
import { isSubgraphKind, readSubgraphDataSource, type RawSubgraphDataSource } from "./subgraphSourceShape.js";

export interface RawEventHandler {
  event: string;
  handler: string;
  receipt: boolean;
  /** Declared `calls:` (specVersion >= 1.2.0), by label. */
  calls: Record<string, string>;
  topic0: string | null;
  topic1: string[] | null;
  topic2: string[] | null;
  topic3: string[] | null;
}

export interface RawBlockHandler {
  handler: string;
  filter: null | { kind: "call" } | { kind: "once" } | { kind: "polling"; every: number };
}

export interface RawCallHandler {
  function: string;
  handler: string;
}

export interface RawMapping {
  kind: string;
  apiVersion: string;
  language: string;
  entities: string[];
  abis: { name: string; file: string }[];
  eventHandlers: RawEventHandler[];
  blockHandlers: RawBlockHandler[];
  callHandlers: RawCallHandler[];
  file: string;
}

export interface RawDataSource {
  kind: string;
  name: string;
  network: string | null;
  address: string | null;
  abi: string;
  startBlock: number;
  endBlock: number | null;
  context: Record<string, { type: string; data: unknown }> | null;
  mapping: RawMapping;
}

/** A file data source template (`kind: file/ipfs`): no source, one handler that receives the file. */
export interface RawFileTemplate {
  kind: string;
  name: string;
  network: string | null;
  mapping: { apiVersion: string; language: string; file: string; handler: string; entities: string[] };
}

export interface RawManifest {
  specVersion: string;
  schemaFile: string;
  dataSources: RawDataSource[];
  templates: RawDataSource[];
  fileTemplates: RawFileTemplate[];
  /** `kind: subgraph` data sources (subgraph composition), in manifest order. */
  subgraphDataSources: RawSubgraphDataSource[];
  /** `graft`: start from another deployment's data at a block (the `grafting` feature). */
  graft: { base: string; block: number } | null;
  /** `features`, as declared (graph-node's SubgraphFeature names). */
  features: string[];
  /** `indexerHints` (specVersion >= 1.0.0); `prune` as written. */
  indexerHints: { prune: string | number | null } | null;
}

type Obj = Record<string, unknown>;

function parseError(path: string, message: string): DeployError {
  return new DeployError("PARSE", `subgraph resolve error: parse error: ${path === "" ? "" : `${path}: `}${message}`, { details: { path } });
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return "unit value";
  if (Array.isArray(value)) return "sequence";
  if (typeof value === "object") return "map";
  if (typeof value === "string") return `string "${value}"`;
  if (typeof value === "number") return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  return `boolean \`${String(value)}\``;
}

function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}

function asObject(value: unknown, path: string): Obj {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw parseError(path, `invalid type: ${describe(value)}, expected a map`);
  return value as Obj;
}

function field(obj: Obj, key: string, path: string): unknown {
  if (!(key in obj) || obj[key] === undefined) throw parseError(path, `missing field \`${key}\``);
  return obj[key];
}

function asString(value: unknown, path: string): string {
  // serde_yaml reads plain scalars like 0.0.5 as strings; numbers written unquoted are accepted too.
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  throw parseError(path, `invalid type: ${describe(value)}, expected a string`);
}

function optString(obj: Obj, key: string, path: string): string | null {
  const value = obj[key];
  return value === undefined || value === null ? null : asString(value, join(path, key));
}

function asArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw parseError(path, `invalid type: ${describe(value)}, expected a sequence`);
  return value;
}

function optArray(obj: Obj, key: string, path: string): unknown[] {
  const value = obj[key];
  return value === undefined || value === null ? [] : asArray(value, join(path, key));
}

function asBlockNumber(value: unknown, path: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 2_147_483_647) return value;
  throw parseError(path, `invalid type: ${describe(value)}, expected a block number (i32 >= 0)`);
}

/** A file link: `{'/': '/ipfs/<cid>'}` or a string. Answers the link text. */
function asLink(value: unknown, path: string): string {
  if (typeof value === "string") return value;
  const obj = asObject(value, path);
  const keys = Object.keys(obj);
  const unknown = keys.find((k) => k !== "/");
  if (unknown !== undefined) throw parseError(path, `unknown field \`${unknown}\`, expected \`/\``);
  return asString(field(obj, "/", path), join(path, "/"));
}

function asTopics(obj: Obj, key: string, path: string): string[] | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  return asArray(value, join(path, key)).map((t, i) => {
    const text = asString(t, join(join(path, key), i)).replace(/^0x/, "").toLowerCase();
    if (!/^[0-9a-f]{0,64}$/.test(text)) throw parseError(join(join(path, key), i), `Failed to parse B256: invalid hex \`${String(t)}\``);
    return `0x${text.padStart(64, "0")}`;
  });
}

function readEventHandler(value: unknown, path: string): RawEventHandler {
  const obj = asObject(value, path);
  const receipt = obj.receipt ?? false;
  if (typeof receipt !== "boolean") throw parseError(join(path, "receipt"), `invalid type: ${describe(receipt)}, expected a boolean`);
  const topic0 = obj.topic0 === undefined || obj.topic0 === null ? null : asTopicsFromString(asString(obj.topic0, join(path, "topic0")), join(path, "topic0"));
  const calls: Record<string, string> = {};
  if (obj.calls !== undefined && obj.calls !== null) {
    for (const [label, decl] of Object.entries(asObject(obj.calls, join(path, "calls")))) calls[label] = asString(decl, join(join(path, "calls"), label));
  }
  return {
    event: asString(field(obj, "event", path), join(path, "event")),
    handler: asString(field(obj, "handler", path), join(path, "handler")),
    receipt,
    calls,
    topic0,
    topic1: asTopics(obj, "topic1", path),
    topic2: asTopics(obj, "topic2", path),
    topic3: asTopics(obj, "topic3", path),
  };
}

function asTopicsFromString(value: string, path: string): string {
  const text = value.replace(/^0x/, "").toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(text)) throw parseError(path, `Failed to parse B256: invalid hex \`${value}\``);
  return `0x${text}`;
}

function readBlockHandler(value: unknown, path: string): RawBlockHandler {
  const obj = asObject(value, path);
  const handler = asString(field(obj, "handler", path), join(path, "handler"));
  if (obj.filter === undefined || obj.filter === null) return { handler, filter: null };
  const fp = join(path, "filter");
  const filter = asObject(obj.filter, fp);
  const kind = asString(field(filter, "kind", fp), join(fp, "kind"));
  if (kind === "call" || kind === "once") return { handler, filter: { kind } };
  if (kind === "polling") {
    const every = filter.every;
    if (typeof every !== "number" || !Number.isInteger(every) || every <= 0) throw parseError(join(fp, "every"), `invalid value: ${describe(every)}, expected a nonzero u32`);
    return { handler, filter: { kind, every } };
  }
  throw parseError(join(fp, "kind"), `unknown variant \`${kind}\`, expected one of \`call\`, \`once\`, \`polling\``);
}

function readMapping(value: unknown, path: string): RawMapping {
  const obj = asObject(value, path);
  return {
    kind: asString(field(obj, "kind", path), join(path, "kind")),
    apiVersion: asString(field(obj, "apiVersion", path), join(path, "apiVersion")),
    language: asString(field(obj, "language", path), join(path, "language")),
    entities: asArray(field(obj, "entities", path), join(path, "entities")).map((e, i) => asString(e, join(join(path, "entities"), i))),
    abis: asArray(field(obj, "abis", path), join(path, "abis")).map((a, i) => {
      const p = join(join(path, "abis"), i);
      const abi = asObject(a, p);
      return { name: asString(field(abi, "name", p), join(p, "name")), file: asLink(field(abi, "file", p), join(p, "file")) };
    }),
    eventHandlers: optArray(obj, "eventHandlers", path).map((h, i) => readEventHandler(h, join(join(path, "eventHandlers"), i))),
    blockHandlers: optArray(obj, "blockHandlers", path).map((h, i) => readBlockHandler(h, join(join(path, "blockHandlers"), i))),
    callHandlers: optArray(obj, "callHandlers", path).map((h, i) => {
      const p = join(join(path, "callHandlers"), i);
      const o = asObject(h, p);
      return { function: asString(field(o, "function", p), join(p, "function")), handler: asString(field(o, "handler", p), join(p, "handler")) };
    }),
    file: asLink(field(obj, "file", path), join(path, "file")),
  };
}

function readContext(value: unknown, path: string): Record<string, { type: string; data: unknown }> | null {
  if (value === undefined || value === null) return null;
  const obj = asObject(value, path);
  const out: Record<string, { type: string; data: unknown }> = {};
  for (const [key, entry] of Object.entries(obj)) {
    const p = join(path, key);
    const e = asObject(entry, p);
    out[key] = { type: asString(field(e, "type", p), join(p, "type")), data: field(e, "data", p) };
  }
  return out;
}

function isFileKind(value: unknown): boolean {
  return typeof value === "string" && value.startsWith("file/");
}

/** graph-node's offchain kinds; only IPFS files can be served here (no Arweave gateway). */
function checkFileKind(kind: string, name: string): void {
  if (kind === "file/ipfs") return;
  const reason =
    kind === "file/arweave"
      ? "file/arweave data sources are not supported by this node: it has no Arweave gateway"
      : `unsupported offchain datasource kind: ${kind}, expected one of: file/ipfs,file/arweave`;
  throw new DeployError("VALIDATION", `subgraph validation error: [data source ${name} is invalid: ${reason}]`, { details: { errors: [reason] } });
}

function readFileTemplate(value: unknown, path: string): RawFileTemplate {
  const obj = asObject(value, path);
  const kind = asString(field(obj, "kind", path), join(path, "kind"));
  const name = asString(field(obj, "name", path), join(path, "name"));
  checkFileKind(kind, name);
  const mp = join(path, "mapping");
  const m = asObject(field(obj, "mapping", path), mp);
  return {
    kind,
    name,
    network: optString(obj, "network", path),
    mapping: {
      apiVersion: asString(field(m, "apiVersion", mp), join(mp, "apiVersion")),
      language: asString(field(m, "language", mp), join(mp, "language")),
      file: asLink(field(m, "file", mp), join(mp, "file")),
      handler: asString(field(m, "handler", mp), join(mp, "handler")),
      entities: asArray(field(m, "entities", mp), join(mp, "entities")).map((e, i) => asString(e, join(join(mp, "entities"), i))),
    },
  };
}

function readDataSource(value: unknown, path: string, isTemplate: boolean): RawDataSource {
  const obj = asObject(value, path);
  const kind = obj.kind;
  if (isFileKind(kind)) {
    // graph-cli writes file data sources only as templates: they exist once a handler names a file.
    const reason = `a file data source (kind ${String(kind)}) must be a template, created by a handler with the file's CID`;
    throw new DeployError("VALIDATION", `subgraph validation error: [data source ${String(obj.name ?? path)} is invalid: ${reason}]`, { details: { errors: [reason] } });
  }
  const source = asObject(field(obj, "source", path), join(path, "source"));
  const sourcePath = join(path, "source");
  const startBlock = source.startBlock === undefined || source.startBlock === null ? 0 : asBlockNumber(source.startBlock, join(sourcePath, "startBlock"));
  const endBlock = source.endBlock === undefined || source.endBlock === null ? null : asBlockNumber(source.endBlock, join(sourcePath, "endBlock"));
  return {
    kind: asString(field(obj, "kind", path), join(path, "kind")),
    name: asString(field(obj, "name", path), join(path, "name")),
    network: optString(obj, "network", path),
    address: isTemplate ? null : optString(source, "address", sourcePath),
    abi: asString(field(source, "abi", sourcePath), join(sourcePath, "abi")),
    startBlock,
    endBlock,
    context: readContext(obj.context, join(path, "context")),
    mapping: readMapping(field(obj, "mapping", path), join(path, "mapping")),
  };
}

/** graph-node's SubgraphFeature variants (serde camelCase), plus the alias it accepts. */
const FEATURES = ["nonFatalErrors", "grafting", "fullTextSearch", "aggregations", "bytesAsIds", "declaredEthCalls", "immutableEntities", "ipfsOnEthereumContracts"];

function readFeatures(root: Obj): string[] {
  return optArray(root, "features", "").map((f, i) => {
    const path = join("features", i);
    const name = asString(f, path);
    if (name === "nonDeterministicIpfs") return "ipfsOnEthereumContracts";
    if (!FEATURES.includes(name)) throw parseError(path, `unknown variant \`${name}\`, expected one of ${FEATURES.map((x) => `\`${x}\``).join(", ")}`);
    return name;
  });
}

function readIndexerHints(value: unknown): RawManifest["indexerHints"] {
  if (value === undefined || value === null) return null;
  const obj = asObject(value, "indexerHints");
  const prune = obj.prune;
  if (prune === undefined || prune === null) return { prune: null };
  if (prune === "auto" || prune === "never") return { prune };
  if (typeof prune === "number" && Number.isInteger(prune) && prune >= 0) return { prune };
  throw parseError("indexerHints.prune", `invalid value: ${describe(prune)}, expected \`auto\`, \`never\` or a number of blocks`);
}

function readGraft(value: unknown): RawManifest["graft"] {
  if (value === undefined || value === null) return null;
  const obj = asObject(value, "graft");
  return { base: asString(field(obj, "base", "graft"), "graft.base"), block: asBlockNumber(field(obj, "block", "graft"), "graft.block") };
}

/** Checks the parsed YAML document's shape. Throws DeployError("PARSE") with the offending path. */
export function readManifestShape(document: unknown): RawManifest {
  const root = asObject(document, "");
  const schema = asObject(field(root, "schema", ""), "schema");
  return {
    specVersion: asString(field(root, "specVersion", ""), "specVersion"),
    schemaFile: asLink(field(schema, "file", "schema"), "schema.file"),
    dataSources: asArray(field(root, "dataSources", ""), "dataSources").flatMap((ds, i) => (isSubgraphKind((ds as Obj | null)?.kind) ? [] : [readDataSource(ds, join("dataSources", i), false)])),
    subgraphDataSources: asArray(root.dataSources, "dataSources").flatMap((ds, i) => (isSubgraphKind((ds as Obj | null)?.kind) ? [readSubgraphDataSource(ds, join("dataSources", i))] : [])),
    templates: optArray(root, "templates", "").flatMap((t, i) => (isFileKind((t as Obj | null)?.kind) ? [] : [readDataSource(t, join("templates", i), true)])),
    fileTemplates: optArray(root, "templates", "").flatMap((t, i) => (isFileKind((t as Obj | null)?.kind) ? [readFileTemplate(t, join("templates", i))] : [])),
    graft: readGraft(root.graft),
    features: readFeatures(root),
    indexerHints: readIndexerHints(root.indexerHints),
  };
}
