// What one GraphQL query may cost, as graph-node bounds it (its GRAPH_GRAPHQL_* settings), plus the
// bounds graph-node gets from its Rust parser and this node needs on its one PGlite connection: how many
// tokens `parse` reads, how deep brackets nest before parsing (graphql-js parses recursively), and how
// many fields (aliases included) an operation selects once its fragments are expanded.
import { Kind, type FragmentDefinitionNode, type SelectionSetNode } from "graphql";
import { BaseError } from "../../lib/errors.js";
import { QueryError } from "./errors.js";

export interface QueryLimits {
  /** Largest `first` (GRAPH_GRAPHQL_MAX_FIRST). */
  maxFirst: number;
  /** Largest `skip` (GRAPH_GRAPHQL_MAX_SKIP). */
  maxSkip: number;
  /** Nested selection sets, the root's included; fragments add a level (GRAPH_GRAPHQL_MAX_DEPTH). */
  maxDepth: number;
  /** Field selections, aliases included, with fragments expanded (LOCAL_NODE_GRAPHQL_MAX_FIELDS). */
  maxFields: number;
  /** Tokens graphql-js's `parse` reads before it gives up (LOCAL_NODE_GRAPHQL_MAX_TOKENS). */
  maxTokens: number;
  /** Wall-clock budget of one query, in ms; null for none (GRAPH_GRAPHQL_QUERY_TIMEOUT, in seconds). */
  timeoutMs: number | null;
  /** Largest result, in bytes of JSON (GRAPH_GRAPHQL_ERROR_RESULT_SIZE). */
  errorResultSize: number;
  /** A result larger than this is logged (GRAPH_GRAPHQL_WARN_RESULT_SIZE). */
  warnResultSize: number;
}

/**
 * graph-node's defaults where it has one (max first 1000, max skip 2^32-1, depth 255). Where graph-node
 * sets no bound (query timeout, result size) this node sets one: it shares one database connection
 * with indexing on PGlite, and one query must not hold it, or the process's memory, without end.
 */
export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxFirst: 1000,
  maxSkip: 4294967295,
  maxDepth: 255,
  maxFields: 5000,
  maxTokens: 50_000,
  timeoutMs: 30_000,
  errorResultSize: 100 * 1024 * 1024,
  warnResultSize: 10 * 1024 * 1024,
};

/** The settings' environment variables, and the unit each is read in. */
const SETTINGS: { name: string; key: keyof QueryLimits; unit: "count" | "seconds" | "bytes" }[] = [
  { name: "GRAPH_GRAPHQL_MAX_FIRST", key: "maxFirst", unit: "count" },
  { name: "GRAPH_GRAPHQL_MAX_SKIP", key: "maxSkip", unit: "count" },
  { name: "GRAPH_GRAPHQL_MAX_DEPTH", key: "maxDepth", unit: "count" },
  { name: "LOCAL_NODE_GRAPHQL_MAX_FIELDS", key: "maxFields", unit: "count" },
  { name: "LOCAL_NODE_GRAPHQL_MAX_TOKENS", key: "maxTokens", unit: "count" },
  { name: "GRAPH_GRAPHQL_QUERY_TIMEOUT", key: "timeoutMs", unit: "seconds" },
  { name: "GRAPH_GRAPHQL_ERROR_RESULT_SIZE", key: "errorResultSize", unit: "bytes" },
  { name: "GRAPH_GRAPHQL_WARN_RESULT_SIZE", key: "warnResultSize", unit: "bytes" },
];

/**
 * The limits an environment sets (for the CLIs; the library itself reads no environment). Values are
 * whole numbers, `_` allowed as graph-node allows it; GRAPH_GRAPHQL_QUERY_TIMEOUT=0 means no timeout.
 * A malformed value throws, naming the variable.
 */
export function queryLimitsFromEnv(env: Record<string, string | undefined>): Partial<QueryLimits> {
  const out: Partial<QueryLimits> = {};
  for (const { name, key, unit } of SETTINGS) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") continue;
    const text = raw.trim().replace(/_/g, "");
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new BaseError(`${name} must be a whole number, got ${JSON.stringify(raw)}`, { code: "ERR_BAD_SETTING", details: { name } });
    const value = Number(text);
    if (unit === "seconds") out.timeoutMs = value === 0 ? null : value * 1000;
    else (out as Record<string, number>)[key] = value;
  }
  return out;
}

/** graph-node's text for a query nested past the depth limit. */
export const tooDeep = (maxDepth: number): QueryError => new QueryError(`query has a depth that exceeds the limit of \`${maxDepth}\``);

export const tooManyFields = (maxFields: number): QueryError =>
  new QueryError(`query selects more than ${maxFields} fields (aliases and fragment expansions included), the limit LOCAL_NODE_GRAPHQL_MAX_FIELDS sets; split it into several queries`);

export const tooManyTokens = (maxTokens: number): QueryError => new QueryError(`query has more than ${maxTokens} tokens, the limit LOCAL_NODE_GRAPHQL_MAX_TOKENS sets`);

/** graphql-js's parse error for a document past `maxTokens` (its text has a typo: "more that"). */
export const isTokenLimitError = (error: unknown): boolean => error instanceof Error && /Document contains more tha[nt] \d+ tokens/.test(error.message);

/** graph-node's texts for a query past its deadline and for a result past the size limit. */
export const timedOut = (): QueryError => new QueryError("Query timed out");
export const resultTooBig = (size: number, limit: number): QueryError => new QueryError(`the result size of ${size} is larger than the allowed limit of ${limit}`);

/**
 * Refuses source text whose brackets nest deeper than any query within the limits could, before the
 * recursive parser sees it (10,000 nested braces overflow its stack). Selections and argument values
 * (`where: {and: [{...}]}`) both nest; twice the depth limit leaves room for both.
 */
export function checkNesting(source: string, maxDepth: number): QueryError | null {
  const bound = 2 * maxDepth;
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x23) {
      // # comment, to the end of the line
      while (i < source.length && source[i] !== "\n" && source[i] !== "\r") i++;
    } else if (c === 0x22) {
      // "string" or """block string"""
      if (source.startsWith('"""', i)) {
        i += 3;
        while (i < source.length && !(source.startsWith('"""', i) && source[i - 1] !== "\\")) i++;
        i += 2;
      } else {
        i++;
        while (i < source.length && source[i] !== '"' && source[i] !== "\n") i += source[i] === "\\" ? 2 : 1;
      }
    } else if (c === 0x7b || c === 0x5b || c === 0x28) {
      if (++depth > bound) return tooDeep(maxDepth);
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      depth--;
    }
  }
  return null;
}

/**
 * graph-node's depth rule (each nested selection set is a level, a fragment's too; a set at level
 * `maxDepth` is too deep) and this node's field count, over an operation with its fragments expanded.
 * Stops at the first limit passed, so a fragment that expands exponentially costs no more than that.
 */
export function checkOperationCost(selectionSet: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, limits: Pick<QueryLimits, "maxDepth" | "maxFields">): QueryError | null {
  let fields = 0;
  const walk = (set: SelectionSetNode, depth: number, inFragments: ReadonlySet<string>): QueryError | null => {
    if (depth >= limits.maxDepth) return tooDeep(limits.maxDepth);
    for (const sel of set.selections) {
      let error: QueryError | null = null;
      if (sel.kind === Kind.FIELD) {
        if (++fields > limits.maxFields) return tooManyFields(limits.maxFields);
        if (sel.selectionSet) error = walk(sel.selectionSet, depth + 1, inFragments);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        error = walk(sel.selectionSet, depth + 1, inFragments);
      } else {
        const name = sel.name.value;
        const fragment = fragments[name];
        // An undefined fragment or a cycle is the validation's to report (validate.ts); not walked here.
        if (!fragment || inFragments.has(name)) continue;
        error = walk(fragment.selectionSet, depth + 1, new Set([...inFragments, name]));
      }
      if (error) return error;
    }
    return null;
  };
  return walk(selectionSet, 0, new Set());
}
