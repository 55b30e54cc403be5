// createQueryExecutor: runs a GraphQL request against one deployment the way graph-node answers it.
// Data fields become EntityQuery descriptions for the store and are projected here (fast: no
// per-field resolvers); introspection runs through graphql-js with the same loaders.
import {
  GraphQLError,
  GraphQLInterfaceType,
  GraphQLObjectType,
  Kind,
  getNamedType,
  execute,
  getArgumentValues,
  getVariableValues,
  parse,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from "graphql";
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import type { DeploymentRecord, NodeStore, ResultObject, Selection } from "../store/index.js";
import { buildApiSchema, type ApiSchema } from "./apiSchema.js";
import { collectFields } from "./collectFields.js";
import { aggregationArgs, collectionArgs, describeSelection, mergedSelectionSet, type DescribeContext } from "./describe.js";
import { QueryError, debugJson, invalidArgument, valueParseError } from "./errors.js";
import { DEFAULT_QUERY_LIMITS, checkNesting, checkOperationCost, isTokenLimitError, resultTooBig, timedOut, tooManyTokens, type QueryLimits } from "./limits.js";
import { validateSelections } from "./validate.js";
import { enumStringsAsEnums } from "./enumStrings.js";
import { LOGS_FIELD, logQueryFromArgs, logsCombinedError, projectLogEntries } from "./logsField.js";

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export interface QueryResponse {
  data?: Record<string, unknown> | null;
  errors?: { message: string; locations?: { line: number; column: number }[] }[];
}

export interface QueryExecutor {
  /** Runs `request` against deployment `deploymentId`; the answer is always graph-node-shaped JSON. */
  run(deploymentId: string, request: GraphQLRequest): Promise<QueryResponse>;
  /** The API schema of a deployment (for tools); null when the deployment does not exist. */
  apiSchema(deploymentId: string): Promise<ApiSchema | null>;
}

interface RequestState {
  deployment: DeploymentRecord;
  api: ApiSchema;
  ctx: DescribeContext;
  /** Per root response key: the block it was answered at, its `block` argument as given and its error policy. */
  blocks: Map<string, RootBlock>;
  /** When the query's time is up (ms since the epoch), or null without a timeout. */
  deadline: number | null;
  /** Size of the root fields answered so far, as JSON text. */
  resultSize: number;
}

interface RootBlock {
  block: number;
  /** The `block` argument (JSON; "null" for none): graph-node groups consecutive root fields by it. */
  constraint: string;
  deny: boolean;
}

const INTROSPECTION = new Set(["__schema", "__type"]);
/** Response keys graph-node answers without an indexing_error when a query holds nothing else. */
const DEBUGGING_KEYS = new Set(["_meta", "_logs"]);
/** Response keys graph-node keeps under `deny` when it adds the indexing_error, in its order. */
const KEPT_UNDER_DENY = ["_meta", "_logs", "__schema", "__type"];

export interface QueryExecutorOptions {
  store: NodeStore;
  /** Largest `first` (graph-node's GRAPH_GRAPHQL_MAX_FIRST, default 1000); overrides `limits`. */
  maxFirst?: number;
  /** Largest `skip` (graph-node's GRAPH_GRAPHQL_MAX_SKIP, default 4294967295); overrides `limits`. */
  maxSkip?: number;
  /** What one query may cost; DEFAULT_QUERY_LIMITS for what is not given. */
  limits?: Partial<QueryLimits>;
  /** Told about a result past `warnResultSize` (graph-node logs "Large query result"). */
  warn?: (message: string) => void;
}

export function createQueryExecutor(deps: QueryExecutorOptions): QueryExecutor {
  const { store } = deps;
  const limits: QueryLimits = {
    ...DEFAULT_QUERY_LIMITS,
    ...deps.limits,
    ...(deps.maxFirst === undefined ? {} : { maxFirst: deps.maxFirst }),
    ...(deps.maxSkip === undefined ? {} : { maxSkip: deps.maxSkip }),
  };
  const apis = new Map<string, ApiSchema>();

  /** The store's answer, unless the query's deadline passes first (graph-node: "Query timed out"). */
  function beforeDeadline<T>(state: RequestState, pending: Promise<T>): Promise<T> {
    if (state.deadline === null) return pending;
    const left = state.deadline - Date.now();
    // The statement keeps running on its connection; the caller stops waiting for it and issues no more.
    if (left <= 0) return (pending.catch(() => undefined), Promise.reject(timedOut()));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(timedOut()), left)));
    return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
  }

  /** The query's remaining time, for the store to bound its statement (Postgres statement_timeout). */
  function timeLeft(state: RequestState): { timeoutMs?: number } {
    return state.deadline === null ? {} : { timeoutMs: Math.max(1, state.deadline - Date.now()) };
  }

  /** Counts a root field's answer against the result size limit (graph-node's ResultTooBig). */
  function account(state: RequestState, value: unknown): unknown {
    state.resultSize += JSON.stringify(value ?? null).length;
    if (state.resultSize > limits.errorResultSize) throw resultTooBig(state.resultSize, limits.errorResultSize);
    return value;
  }

  function apiFor(deployment: DeploymentRecord): ApiSchema {
    let api = apis.get(deployment.id);
    if (!api) {
      api = buildApiSchema(parseSubgraphSchema(deployment.schemaSdl));
      apis.set(deployment.id, api);
    }
    return api;
  }

  /** graph-node's block constraint: hash > number > number_gte > latest. */
  async function resolveBlock(state: RequestState, arg: unknown): Promise<{ number: number; hash: string | null; latest: boolean }> {
    const latest = state.deployment.latestBlock;
    const id = state.deployment.id;
    if (!latest) {
      throw new QueryError(`Subgraph \`${id}\` has not started syncing yet. Wait for it to ingest a few blocks before querying it`);
    }
    const queryable = (what: string, n: number): void => {
      if (n > latest.number) throw valueParseError(what, `subgraph ${id} has only indexed up to block number ${latest.number} and data for block number ${n} is therefore not yet available`);
      if (n < state.deployment.earliestBlock) throw valueParseError(what, `subgraph ${id} only has data starting at block number ${state.deployment.earliestBlock} and data for block number ${n} is therefore not available`);
    };
    const b = (arg ?? {}) as { hash?: string; number?: number; number_gte?: number };
    if (typeof b.hash === "string") {
      const n = await beforeDeadline(state, store.blockNumberForHash(id, b.hash));
      if (n === null) throw valueParseError("block.hash", "no block with that hash found");
      queryable("block.number", n);
      return { number: n, hash: b.hash, latest: false };
    }
    if (typeof b.number === "number") {
      queryable("block.number", b.number);
      return { number: b.number, hash: null, latest: false };
    }
    if (typeof b.number_gte === "number" && latest.number < b.number_gte) {
      throw valueParseError("block.number_gte", `subgraph ${id} has only indexed up to block number ${latest.number} and data for block number ${b.number_gte} is therefore not yet available`);
    }
    return { number: latest.number, hash: latest.hash, latest: true };
  }

  async function resolveRoot(state: RequestState, key: string, nodes: FieldNode[]): Promise<unknown> {
    return account(state, await resolveRootValue(state, key, nodes));
  }

  async function resolveRootValue(state: RequestState, key: string, nodes: FieldNode[]): Promise<unknown> {
    const node = nodes[0];
    if (!node) return null;
    const name = node.name.value;
    if (name === "__typename") return "Query";
    const root = state.api.rootFields.get(name);
    const fieldDef = state.api.schema.getQueryType()?.getFields()[name];
    if (!root || !fieldDef) return null;
    const args = getArgumentValues(fieldDef, node, state.ctx.variables);
    const block = await resolveBlock(state, args.block);
    if (root.kind === "logs") {
      // A debugging field, as `_meta`: never hidden by an indexing error, and answered without a block.
      state.blocks.set(key, { block: block.number, constraint: "null", deny: true });
      const entries = await beforeDeadline(state, store.queryLogs(state.deployment.id, logQueryFromArgs(args, node)));
      return projectLogEntries(state.ctx, entries, nodes);
    }
    const deny = args.subgraphError !== "allow";
    state.blocks.set(key, { block: block.number, constraint: JSON.stringify(args.block ?? null), deny });
    const firstError = state.deployment.firstErrorBlock;
    if (root.kind === "meta") {
      const meta = state.deployment.latestBlock;
      const blockObj: ResultObject = {
        hash: block.hash,
        number: block.number,
        timestamp: block.latest ? (meta?.timestamp ?? null) : null,
        parentHash: block.latest ? (meta?.parentHash ?? null) : null,
        __typename: "_Block_",
      };
      const metaObj: ResultObject = {
        block: blockObj,
        deployment: state.deployment.id,
        hasIndexingErrors: firstError !== null && firstError <= block.number,
        __typename: "_Meta_",
      };
      return projectPlain(state, "_Meta_", metaObj, mergedSelectionSet(nodes));
    }
    const selection = describeSelection(state.ctx, root.typeName, mergedSelectionSet(nodes));
    const entityTypes = state.api.subgraph.interfaces.get(root.typeName)?.implementedBy ?? [root.typeName];
    if (root.kind === "single") {
      const id = String(args.id);
      const idKind = state.api.subgraph.entities.get(entityTypes[0] ?? "")?.idKind;
      if (idKind === "Bytes" && !/^0x([0-9a-fA-F]{2})*$/.test(id)) return null;
      // graph-node parses an Int8 id as Rust's i64 does, and a failure fails the query.
      if (idKind === "Int8") {
        const problem = int8ParseProblem(id);
        if (problem) throw new QueryError(`Store error: store error: failed to convert \`${id}\` to an Int8: ${problem}`);
      }
      const { rows } = await beforeDeadline(state, store.queryEntities(state.deployment.id, {
        entityTypes, filter: { kind: "compare", field: "id", op: "eq", value: idKind === "Bytes" ? id.toLowerCase() : id },
        order: null, skip: 0, first: 1, block: block.number, selection, ...timeLeft(state),
      }));
      return rows[0] ? project(rows[0], selection, state.api) : null;
    }
    if (root.kind === "aggregation") {
      // graph-node reads the interval's table (and with `current: include` the in-progress bucket);
      // newest buckets first unless an order is asked for.
      const { aggregation, ...range } = aggregationArgs(state.ctx, root.typeName, args);
      const { table, current } = aggregation;
      const { rows } = await beforeDeadline(state, store.queryEntities(state.deployment.id, { entityTypes: [table], ...range, block: block.number, selection, current, ...timeLeft(state) }));
      return rows.map((r) => project({ ...r, __typename: root.typeName }, selection, state.api));
    }
    const range = collectionArgs(state.ctx, root.typeName, root.kind === "fulltext" ? { first: args.first, skip: args.skip, where: args.where } : args);
    if (root.kind === "fulltext") {
      // graph-node: the search and the where filter together, ordered by rank ascending (its default
      // direction; the field has no orderBy), then id.
      const text = String(args.text);
      const search = { kind: "fulltext" as const, name: root.name, text };
      range.filter = range.filter ? { kind: "and", filters: [search, range.filter] } : search;
      range.order = { field: root.name, direction: "asc", fulltextText: text };
    }
    const { rows } = await beforeDeadline(state, store.queryEntities(state.deployment.id, { entityTypes, ...range, block: block.number, selection, ...timeLeft(state) }));
    return rows.map((r) => project(r, selection, state.api));
  }

  async function run(deploymentId: string, request: GraphQLRequest): Promise<QueryResponse> {
    const started = Date.now();
    const nested = checkNesting(request.query, limits.maxDepth);
    if (nested) return { errors: [nested.toJSON()] };
    let document: DocumentNode;
    try {
      document = parse(request.query, { maxTokens: limits.maxTokens });
    } catch (error) {
      if (isTokenLimitError(error)) return { errors: [tooManyTokens(limits.maxTokens).toJSON()] };
      const e = error as GraphQLError;
      return { errors: [{ ...(e.locations ? { locations: [...e.locations] } : {}), message: e.message }] };
    }
    const deployment = await store.getDeployment(deploymentId);
    if (!deployment) return { errors: [{ message: `deployment \`${deploymentId}\` does not exist` }] };
    const api = apiFor(deployment);
    // Only a query with a string literal can have one to rewrite (and large queries often have none).
    if (request.query.includes('"')) document = enumStringsAsEnums(api.schema, document);

    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    let operation: OperationDefinitionNode | undefined;
    if (request.operationName) {
      operation = operations.find((o) => o.name?.value === request.operationName);
      if (!operation) return { errors: [{ message: `Operation name not found \`${request.operationName}\`` }] };
    } else {
      if (operations.length > 1) return { errors: [{ message: "Operation name required" }] };
      operation = operations[0];
    }
    if (!operation) return { errors: [{ message: "The query is empty" }] };
    if (operation.operation !== "query") return { errors: [{ message: `Not supported: Only queries are supported` }] };
    const tooCostly = checkOperationCost(operation.selectionSet, fragments, limits);
    if (tooCostly) return { errors: [tooCostly.toJSON()] };

    const coerced = getVariableValues(api.schema, operation.variableDefinitions ?? [], request.variables ?? {});
    if (coerced.errors) {
      return {
        errors: coerced.errors.map((e) => {
          const def = (operation?.variableDefinitions ?? []).find((v) => e.nodes?.includes(v));
          const name = def?.variable.name.value ?? "";
          const loc = def?.loc ? [{ line: def.loc.startToken.line, column: def.loc.startToken.column }] : undefined;
          if (def && request.variables?.[name] === undefined) return { message: `No value provided for required variable \`${name}\``, ...(loc ? { locations: loc } : {}) };
          return invalidArgument(name, debugJson(request.variables?.[name])).toJSON();
        }),
      };
    }
    const variables = coerced.coerced;
    const queryType = api.schema.getQueryType();
    if (!queryType) return { errors: [{ message: "internal error: no Query type" }] };
    const invalid = validateSelections(api.schema, fragments, variables, queryType, operation.selectionSet);
    if (invalid.length > 0) return { errors: invalid.map((e) => e.toJSON()) };

    const state: RequestState = {
      deployment, api, ctx: { api, limits, fragments, variables }, blocks: new Map(),
      deadline: limits.timeoutMs === null ? null : started + limits.timeoutMs, resultSize: 0,
    };
    const roots = collectFields({ fragments, variables, applies: (t) => t === "Query" }, operation.selectionSet);
    // graph-node ignores a field of an object type given without a selection set (its graphql-bug-compat);
    // a query left with no field answers neither data nor errors.
    for (const [key, nodes] of roots) if (needsSelection(queryType, nodes)) roots.delete(key);
    if (roots.size === 0 && operation.selectionSet.selections.length > 0) return {};
    if (logsBesideEntities(roots)) return { errors: [logsCombinedError().toJSON()] };
    const data: Record<string, unknown> = {};
    try {
      const introspection = [...roots].filter(([, nodes]) => INTROSPECTION.has(nodes[0]?.name.value ?? ""));
      // Introspection answers at the latest block, as graph-node's resolver for it does.
      for (const [key] of introspection) state.blocks.set(key, { block: deployment.latestBlock?.number ?? -1, constraint: "null", deny: true });
      if (introspection.length > 0) {
        const result = await execute({
          schema: api.schema, document, variableValues: variables, operationName: request.operationName ?? undefined, rootValue: {},
          fieldResolver: (source: Record<string, unknown>, _args, _ctx, info) => {
            if (info.parentType === queryType) return resolveRoot(state, info.path.key as string, [...info.fieldNodes]);
            return source[info.path.key as string];
          },
          typeResolver: (value: Record<string, unknown>) => value.__typename as string,
        });
        if (result.errors && result.errors.length > 0) return { errors: result.errors.map(toErrorJson) };
        Object.assign(data, result.data ?? {});
      } else {
        // One root field after another, as graph-node runs field groups: the deadline and the size
        // limit stop a query between two of its store reads, before the next one starts.
        for (const [key, nodes] of roots) data[key] = await resolveRoot(state, key, nodes);
      }
    } catch (error) {
      return { errors: [toErrorJson(error)] };
    }
    if (state.resultSize > limits.warnResultSize) deps.warn?.(`large query result: ${state.resultSize} bytes of JSON from deployment ${deploymentId}`);
    return applyErrorPolicy(state, [...roots.keys()], data);
  }

  return {
    run,
    async apiSchema(deploymentId) {
      const deployment = await store.getDeployment(deploymentId);
      return deployment ? apiFor(deployment) : null;
    },
  };
}

/** A root field whose type has fields, given without any. */
function needsSelection(queryType: GraphQLObjectType, nodes: FieldNode[]): boolean {
  const def = queryType.getFields()[nodes[0]?.name.value ?? ""];
  if (!def || nodes.some((n) => n.selectionSet)) return false;
  const named = getNamedType(def.type);
  return named instanceof GraphQLObjectType || named instanceof GraphQLInterfaceType;
}

/** `_logs` with an entity field in one query (introspection, `_meta` and `__typename` may stand beside it). */
function logsBesideEntities(roots: Map<string, FieldNode[]>): boolean {
  const names = [...roots.values()].map((nodes) => nodes[0]?.name.value ?? "");
  return names.includes(LOGS_FIELD) && names.some((n) => n !== LOGS_FIELD && n !== "_meta" && n !== "__typename" && !INTROSPECTION.has(n));
}

/**
 * graph-node's post-processing when the deployment has a deterministic error, group by group of root
 * fields (consecutive fields with the same `block` argument, each group at its own block): a group at or
 * past the error gets an `indexing_error` unless its response keys are only `_meta` and `_logs` (by key:
 * an alias is not spared, a `__typename` beside them is not); under `deny` (when any of its fields lacks
 * `subgraphError: allow`) it keeps only the keys `_meta`, `_logs`, `__schema` and `__type`.
 */
function applyErrorPolicy(state: RequestState, keys: string[], data: Record<string, unknown>): QueryResponse {
  const firstError = state.deployment.firstErrorBlock;
  if (firstError === null) return { data };
  // A root without an entry (`__typename`) is read at the latest block, with no arguments.
  const latest: RootBlock = { block: state.deployment.latestBlock?.number ?? -1, constraint: "null", deny: true };
  const groups: { keys: string[]; block: number; constraint: string; deny: boolean }[] = [];
  for (const key of keys) {
    const root = state.blocks.get(key) ?? latest;
    const last = groups.at(-1);
    if (last && last.constraint === root.constraint) {
      last.keys.push(key);
      last.deny ||= root.deny;
    } else groups.push({ keys: [key], ...root });
  }
  const out: Record<string, unknown> = {};
  const errors: { message: string }[] = [];
  for (const group of groups) {
    const present = group.keys.filter((k) => k in data);
    const spared = firstError > group.block || present.every((k) => DEBUGGING_KEYS.has(k));
    if (!spared) errors.push({ message: "indexing_error" });
    const kept = spared || !group.deny ? present : KEPT_UNDER_DENY.filter((k) => present.includes(k));
    for (const k of kept) out[k] = data[k];
  }
  if (errors.length === 0) return { data };
  return Object.keys(out).length > 0 ? { data: out, errors } : { errors };
}

function toErrorJson(error: unknown): { message: string; locations?: { line: number; column: number }[] } {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof QueryError) return original.toJSON();
  if (original instanceof GraphQLError) return { ...(original.locations ? { locations: [...original.locations] } : {}), message: original.message };
  if (original instanceof Error) return { message: original.message };
  return { message: String(original) };
}

/**
 * A store row -> the response object, keys in selection order, hidden join keys left out. Rows of an
 * interface query only get the fields their own type has (fields of `... on OtherType` are left out).
 */
function project(row: ResultObject, selection: Selection[], api: ApiSchema): ResultObject {
  const out: ResultObject = {};
  const own = api.subgraph.entities.get(String(row.__typename))?.fieldsByName;
  for (const sel of selection) {
    if (sel.kind === "typename") {
      out[sel.key] = row.__typename;
      continue;
    }
    if (own && !own.has(sel.field)) continue;
    if (sel.kind === "field") {
      out[sel.key] = row[sel.key] ?? null;
    } else {
      const child = row[sel.key];
      const def = own?.get(sel.field);
      if (Array.isArray(child)) out[sel.key] = child.map((c) => project(c as ResultObject, sel.query.selection, api));
      else if (child) out[sel.key] = project(child as ResultObject, sel.query.selection, api);
      // graph-node answers an unset list of references with [], and fails the query when a non-null
      // reference points at an entity that does not exist (at the queried block).
      else if (def?.list) out[sel.key] = [];
      else if (def?.nonNull) throw new QueryError(`Null value resolved for non-null field \`${sel.field}\``);
      else out[sel.key] = null;
    }
  }
  // Kept for graphql-js (interfaces resolve their type from it); JSON output never reads it there.
  if (!Object.hasOwn(out, "__typename")) Object.defineProperty(out, "__typename", { value: row.__typename, enumerable: false });
  return out;
}

/** Plain objects (_meta) projected by the query's selection, following aliases and fragments. */
function projectPlain(state: RequestState, typeName: string, value: ResultObject, set: ReturnType<typeof mergedSelectionSet>): ResultObject {
  const out: ResultObject = {};
  const fields = collectFields({ fragments: state.ctx.fragments, variables: state.ctx.variables, applies: (t) => t === typeName }, set);
  for (const [key, nodes] of fields) {
    const name = nodes[0]?.name.value ?? "";
    if (name === "__typename") {
      out[key] = typeName;
      continue;
    }
    const v = value[name];
    out[key] = v !== null && typeof v === "object" ? projectPlain(state, String((v as ResultObject).__typename), v as ResultObject, mergedSelectionSet(nodes)) : (v ?? null);
  }
  return out;
}

/** Why Rust's `i64::from_str` refuses `text`, in its words; null when it parses. */
function int8ParseProblem(text: string): string | null {
  if (text === "" || text === "-" || text === "+") return text === "" ? "cannot parse integer from empty string" : "invalid digit found in string";
  if (!/^[+-]?\d+$/.test(text)) return "invalid digit found in string";
  const value = BigInt(text);
  if (value > 9223372036854775807n) return "number too large to fit in target type";
  if (value < -9223372036854775808n) return "number too small to fit in target type";
  return null;
}
