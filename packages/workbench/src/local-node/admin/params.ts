// The admin methods' params, read the way graph-node's serde structs read them: a JSON object (or
// an array, positionally), unknown fields ignored, serde's messages ("missing field `name`", "invalid
// value: string \"a b\", expected valid subgraph name"). Failures answer -32602 "Invalid params: ...".
import { JsonRpcMethodError } from "./jsonRpc.js";

type Kind = "name" | "hash" | "node" | "i32" | "string";

interface FieldSpec {
  key: string;
  kind: Kind;
  optional: boolean;
}

export interface CreateParams {
  name: string;
}
export interface DeployParams {
  name: string;
  ipfs_hash: string;
  node_id: string | null;
  debug_fork: string | null;
  history_blocks: number | null;
  /** Sent by graph-cli; graph-node ignores unknown fields, the node passes it on. */
  version_label: string | null;
}
export interface RemoveParams {
  name: string;
}
export interface ReassignParams {
  ipfs_hash: string;
  node_id: string;
}
export interface PauseParams {
  deployment: string;
}

function invalidParams(message: string): JsonRpcMethodError {
  return new JsonRpcMethodError(-32602, `Invalid params: ${message}`);
}

/** graph-node's SubgraphName rules. */
export function isValidSubgraphName(s: string): boolean {
  if (s.length === 0 || s.length > 255) return false;
  if (!/^[A-Za-z0-9_/-]+$/.test(s)) return false;
  return s.split("/").every((part) => part !== "" && part !== "graphql" && /^[A-Za-z0-9].*[A-Za-z0-9]$|^[A-Za-z0-9]$/.test(part) && /[A-Za-z]/.test(part));
}

/** graph-node's DeploymentHash rules (not a CID check: at most 46 alphanumerics or `_`). */
export function isValidDeploymentHash(s: string): boolean {
  return s.length <= 46 && /^[A-Za-z0-9_]*$/.test(s) && s !== "subgraphs";
}

/** serde's wording for an unexpected JSON value. */
function unexpected(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "sequence";
  if (typeof value === "object") return "map";
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  if (typeof value === "boolean") return `boolean \`${String(value)}\``;
  if (typeof value === "number") {
    return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  }
  return "value";
}

function readField(value: unknown, spec: FieldSpec): unknown {
  if (value === null || value === undefined) {
    if (spec.optional) return null;
    // serde: a present null for a required String field.
    throw invalidParams(`invalid type: null, expected ${spec.kind === "i32" ? "i32" : "a string"}`);
  }
  if (spec.kind === "i32") {
    if (typeof value !== "number" || !Number.isInteger(value)) throw invalidParams(`invalid type: ${unexpected(value)}, expected i32`);
    if (value < -2_147_483_648 || value > 2_147_483_647) throw invalidParams(`invalid value: integer \`${value}\`, expected i32`);
    return value;
  }
  if (typeof value !== "string") throw invalidParams(`invalid type: ${unexpected(value)}, expected a string`);
  const valid =
    spec.kind === "name" ? isValidSubgraphName(value) : spec.kind === "hash" ? isValidDeploymentHash(value) : spec.kind === "node" ? value.length >= 1 && value.length <= 63 : true;
  if (!valid) {
    // graph-node's DeploymentHash deserializer also says "valid subgraph name".
    const expected = spec.kind === "node" ? "valid node ID" : "valid subgraph name";
    throw invalidParams(`invalid value: string ${JSON.stringify(value)}, expected ${expected}`);
  }
  return value;
}

function readStruct(structName: string, fields: FieldSpec[], params: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (Array.isArray(params)) {
    // serde deserialises a struct from a sequence too, field by field in declaration order.
    const required = fields.filter((f) => !f.optional).length;
    if (params.length < required) {
      throw invalidParams(`invalid length ${params.length}, expected struct ${structName} with ${fields.length} element${fields.length === 1 ? "" : "s"}`);
    }
    if (params.length > fields.length) throw invalidParams(`invalid length ${params.length}, expected fewer elements in array`);
    fields.forEach((spec, i) => {
      out[spec.key] = readField(params[i], spec);
    });
    return out;
  }
  if (typeof params !== "object" || params === null) throw invalidParams(`invalid type: ${unexpected(params)}, expected struct ${structName}`);
  const obj = params as Record<string, unknown>;
  for (const spec of fields) {
    if (!Object.hasOwn(obj, spec.key) && !spec.optional) throw invalidParams(`missing field \`${spec.key}\``);
    out[spec.key] = readField(obj[spec.key], spec);
  }
  return out;
}

const req = (key: string, kind: Kind): FieldSpec => ({ key, kind, optional: false });
const opt = (key: string, kind: Kind): FieldSpec => ({ key, kind, optional: true });

export function readCreateParams(params: unknown): CreateParams {
  return readStruct("SubgraphCreateParams", [req("name", "name")], params) as unknown as CreateParams;
}

export function readDeployParams(params: unknown): DeployParams {
  const fields = [req("name", "name"), req("ipfs_hash", "hash"), opt("node_id", "node"), opt("debug_fork", "hash"), opt("history_blocks", "i32")];
  const out = readStruct("SubgraphDeployParams", fields, params);
  // version_label is not one of graph-node's fields: take it only when it is a string.
  const label = typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>).version_label : undefined;
  return { ...(out as unknown as Omit<DeployParams, "version_label">), version_label: typeof label === "string" ? label : null };
}

export function readRemoveParams(params: unknown): RemoveParams {
  return readStruct("SubgraphRemoveParams", [req("name", "name")], params) as unknown as RemoveParams;
}

export function readReassignParams(params: unknown): ReassignParams {
  return readStruct("SubgraphReassignParams", [req("ipfs_hash", "hash"), req("node_id", "node")], params) as unknown as ReassignParams;
}

export function readPauseParams(params: unknown): PauseParams {
  return readStruct("SubgraphPauseParams", [req("deployment", "hash")], params) as unknown as PauseParams;
}
