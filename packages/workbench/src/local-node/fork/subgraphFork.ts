// A deployment's debug fork (graph-node's SubgraphFork): a mapping's store read that misses locally
// asks another node's GraphQL for the entity. Each entity is asked for once: after that the deployment's
// own writes and removals are what it sees, so a removed entity does not come back from the base.
import { maskUrl } from "../../lib/redact.js";
import type { EntityData } from "../../wasm-host/index.js";
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import { ForkError } from "./errors.js";
import { forkEndpoint } from "./forkBase.js";
import { forkQuery, singularField, type ForkQuery } from "./forkQuery.js";
import { AnswerShapeError, entityFromAnswer } from "./forkAnswer.js";

export interface SubgraphForkOptions {
  /** The node's fork base (parseForkBase). */
  base: URL;
  /** The deployment the fork reads from, as the base names it (`subgraph_deploy`'s `debug_fork`). */
  forkId: string;
  /** The forking deployment's own schema (its SDL): it decides which fields are asked for and how they decode. */
  schemaSdl: string;
  /** How long one query may take before the fetch fails (default 60 s; graph-node waits without limit). */
  timeoutMs?: number;
  /** Injectable for tests; the global fetch otherwise. */
  fetch?: typeof globalThis.fetch;
  log?(level: "debug" | "info" | "warning", message: string): void;
}

export interface SubgraphFork {
  /** Where queries go, credentials masked. */
  readonly endpoint: string;
  /**
   * The entity as the base has it at its latest block, or null: when the base has none, or when this
   * entity was asked for before (whatever the answer). Throws ForkError when the base cannot answer.
   */
  fetch(entityType: string, id: string): Promise<EntityData | null>;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** graph-node prints the query with Rust's Debug format in its failure message. */
function describeQuery(q: ForkQuery): string {
  return `Query { query: ${JSON.stringify(q.query)}, variables: Variables { id: ${JSON.stringify(q.variables.id)} } }`;
}

export function createSubgraphFork(options: SubgraphForkOptions): SubgraphFork {
  const schema = parseSubgraphSchema(options.schemaSdl);
  const url = forkEndpoint(options.base, options.forkId);
  const endpoint = maskUrl(url.href);
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const log = options.log ?? (() => {});
  // By type and id (graph-node keys by id alone, so that `Account 0x1` hides `Balance 0x1`).
  const asked = new Set<string>();

  async function send(q: ForkQuery): Promise<string> {
    let res: Response;
    try {
      res = await doFetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(q),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      const why = cause instanceof Error && cause.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : describeCause(cause);
      throw new ForkError(`sending a GraphQL query to \`${endpoint}\` failed with: "${why}"`, { cause, details: { endpoint } });
    }
    try {
      return await res.text();
    } catch (cause) {
      throw new ForkError(`receiving a response from \`${endpoint}\` failed with: "${describeCause(cause)}"`, { cause, details: { endpoint } });
    }
  }

  return {
    endpoint,
    async fetch(entityType, id) {
      const type = schema.entities.get(entityType);
      if (!type) throw new ForkError(`no entity type called \`${entityType}\` in the deployment's schema`);
      const k = `${entityType}\u0000${id}`;
      if (asked.has(k)) {
        log("debug", `debug fork: ${entityType} ${id} was fetched before; the deployment's own state stands`);
        return null;
      }
      log("info", `debug fork: fetching ${entityType} ${id} from ${endpoint}`);
      const q = forkQuery(type, id);
      const raw = await send(q);
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        throw new ForkError(`the GraphQL query ${describeQuery(q)} to \`${endpoint}\` failed with "${raw.slice(0, 2000)}" (not JSON)`, { details: { endpoint } });
      }
      const data = typeof body === "object" && body !== null ? (body as { data?: unknown }).data : undefined;
      // No data: the base refused the query (an unknown deployment, a type it lacks). Data with errors is
      // a failed base subgraph answering under `subgraphError: allow`: its entity is used.
      if (typeof data !== "object" || data === null) {
        throw new ForkError(`the GraphQL query ${describeQuery(q)} to \`${endpoint}\` failed with "${raw.slice(0, 2000)}"`, { details: { endpoint } });
      }
      let entity: EntityData | null;
      try {
        entity = entityFromAnswer(schema, type, (data as Record<string, unknown>)[singularField(entityType)]);
      } catch (error) {
        if (!(error instanceof AnswerShapeError)) throw error;
        throw new ForkError(`${error.message} (${entityType} \`${id}\` from \`${endpoint}\`)`, { cause: error, details: { endpoint } });
      }
      // Marked once answered: a base that was down is asked again when the deployment retries the block.
      asked.add(k);
      return entity;
    },
  };
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : "";
  return `${cause.message}${inner}`;
}
