// The shape of a `kind: subgraph` data source (subgraph composition, specVersion 1.3.0): `source.address`
// names the source deployment (its id, Qm...), `mapping.handlers` run on the source's entities, one
// handler per entity type. Checked with serde-like messages, as manifestShape.ts does for the others.
import { DeployError } from "./errors.js";

export interface RawEntityHandler {
  handler: string;
  entity: string;
}

export interface RawSubgraphDataSource {
  kind: "subgraph";
  name: string;
  network: string | null;
  /** `source.address`: the source deployment's id. */
  source: string;
  startBlock: number;
  context: Record<string, { type: string; data: unknown }> | null;
  mapping: { apiVersion: string; language: string; file: string; entities: string[]; handlers: RawEntityHandler[] };
}

type Obj = Record<string, unknown>;

export function isSubgraphKind(value: unknown): boolean {
  return value === "subgraph";
}

function parseError(path: string, message: string): DeployError {
  return new DeployError("PARSE", `subgraph resolve error: parse error: ${path}: ${message}`, { details: { path } });
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return "unit value";
  if (Array.isArray(value)) return "sequence";
  if (typeof value === "object") return "map";
  if (typeof value === "string") return `string "${value}"`;
  if (typeof value === "number") return `integer \`${value}\``;
  return `boolean \`${String(value)}\``;
}

function at(path: string, key: string | number): string {
  return typeof key === "number" ? `${path}[${key}]` : `${path}.${key}`;
}

function asObject(value: unknown, path: string): Obj {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw parseError(path, `invalid type: ${describe(value)}, expected a map`);
  return value as Obj;
}

function field(obj: Obj, key: string, path: string): unknown {
  if (obj[key] === undefined) throw parseError(path, `missing field \`${key}\``);
  return obj[key];
}

function asString(value: unknown, path: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  throw parseError(path, `invalid type: ${describe(value)}, expected a string`);
}

function asStrings(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) throw parseError(path, `invalid type: ${describe(value)}, expected a sequence`);
  return value.map((v, i) => asString(v, at(path, i)));
}

function asLink(value: unknown, path: string): string {
  if (typeof value === "string") return value;
  return asString(field(asObject(value, path), "/", path), at(path, "/"));
}

/** graph-node's DeploymentHash: up to 46 letters, digits or `_` (gnd dev turns the check off; a real node does not). */
export function isDeploymentHash(text: string): boolean {
  return text.length <= 46 && /^[A-Za-z0-9_]+$/.test(text) && text !== "subgraphs";
}

function readContext(value: unknown, path: string): RawSubgraphDataSource["context"] {
  if (value === undefined || value === null) return null;
  const out: Record<string, { type: string; data: unknown }> = {};
  for (const [key, entry] of Object.entries(asObject(value, path))) {
    const e = asObject(entry, at(path, key));
    out[key] = { type: asString(field(e, "type", at(path, key)), at(at(path, key), "type")), data: field(e, "data", at(path, key)) };
  }
  return out;
}

export function readSubgraphDataSource(value: unknown, path: string): RawSubgraphDataSource {
  const obj = asObject(value, path);
  const name = asString(field(obj, "name", path), at(path, "name"));
  const sp = at(path, "source");
  const source = asObject(field(obj, "source", path), sp);
  const address = asString(field(source, "address", sp), at(sp, "address"));
  if (!isDeploymentHash(address)) throw parseError(at(sp, "address"), `invalid value: string "${address}", expected a deployment hash (up to 46 letters, digits or \`_\`)`);
  const start = source.startBlock ?? 0;
  if (typeof start !== "number" || !Number.isInteger(start) || start < 0 || start > 2_147_483_647) throw parseError(at(sp, "startBlock"), `invalid type: ${describe(start)}, expected a block number (i32 >= 0)`);
  const mp = at(path, "mapping");
  const m = asObject(field(obj, "mapping", path), mp);
  const handlers = field(m, "handlers", mp);
  if (!Array.isArray(handlers)) throw parseError(at(mp, "handlers"), `invalid type: ${describe(handlers)}, expected a sequence`);
  return {
    kind: "subgraph",
    name,
    network: obj.network === undefined || obj.network === null ? null : asString(obj.network, at(path, "network")),
    source: address,
    startBlock: start,
    context: readContext(obj.context, at(path, "context")),
    mapping: {
      apiVersion: asString(field(m, "apiVersion", mp), at(mp, "apiVersion")),
      language: asString(field(m, "language", mp), at(mp, "language")),
      file: asLink(field(m, "file", mp), at(mp, "file")),
      entities: asStrings(field(m, "entities", mp), at(mp, "entities")),
      handlers: handlers.map((h, i) => {
        const hp = at(at(mp, "handlers"), i);
        const ho = asObject(h, hp);
        return { handler: asString(field(ho, "handler", hp), at(hp, "handler")), entity: asString(field(ho, "entity", hp), at(hp, "entity")) };
      }),
    },
  };
}
