// Indexing status as both engines report it, and waiting until both have settled: synced at the chain's
// head, or failed.
import { createJsonRpcClient } from "../json-rpc/index.js";
import { postGraphQL } from "./graphql.js";
import type { Engine } from "./engines.js";
import type { ProgressBoard } from "../lib/catchUpProgress.js";

export interface ComparedStatus {
  health: string;
  synced: boolean;
  /** graph-node pauses a deployment whose handler fails under `nonFatalErrors` before it synced. */
  paused: boolean;
  latestBlock: string | null;
  /** The earliest block queries may ask for: the block before the start block, moved up by pruning. */
  earliestBlock: string | null;
  historyBlocks: number;
  /** Entities at the head, as graph-node counts them (its proof-of-indexing entity included). */
  entityCount: string;
  fatalError: { message: string; handler: string | null; block: string | null } | null;
  nonFatalErrors: { message: string; handler: string | null; block: string | null }[];
}

interface RawStatus {
  synced: boolean;
  paused: boolean | null;
  health: string;
  fatalError: { message: string; handler: string | null; block: { number: string } | null } | null;
  nonFatalErrors: { message: string; handler: string | null; block: { number: string } | null }[];
  historyBlocks: number;
  entityCount: string;
  chains: { latestBlock: { number: string } | null; earliestBlock: { number: string } | null }[];
}

const STATUS_QUERY = `query S($name: String!) { s: indexingStatusForCurrentVersion(subgraphName: $name) {
  synced health paused fatalError { message handler block { number } } nonFatalErrors { message handler block { number } }
  historyBlocks entityCount chains { latestBlock { number } earliestBlock { number } } } }`;

export async function readStatus(engine: Engine): Promise<ComparedStatus | { error: string }> {
  const answer = await postGraphQL(engine.statusUrl, STATUS_QUERY, { name: engine.name });
  const s = (answer.data as { s?: RawStatus | null } | undefined)?.s;
  if (!s) return { error: answer.errors?.map((e) => e.message).join("; ") ?? "no status" };
  return {
    health: s.health,
    synced: s.synced,
    paused: s.paused === true,
    latestBlock: s.chains[0]?.latestBlock?.number ?? null,
    earliestBlock: s.chains[0]?.earliestBlock?.number ?? null,
    historyBlocks: s.historyBlocks,
    entityCount: s.entityCount,
    fatalError: s.fatalError ? { message: s.fatalError.message, handler: s.fatalError.handler, block: s.fatalError.block?.number ?? null } : null,
    nonFatalErrors: s.nonFatalErrors.map((e) => ({ message: e.message, handler: e.handler, block: e.block?.number ?? null })),
  };
}

/** The deployment id an engine serves the engine's subgraph name from (gnd dev's ids are manifest paths). */
export async function readDeploymentId(engine: Engine): Promise<string> {
  const answer = await postGraphQL(engine.statusUrl, `query S($name: String!) { s: indexingStatusForCurrentVersion(subgraphName: $name) { subgraph } }`, { name: engine.name });
  const id = (answer.data as { s?: { subgraph: string } | null } | undefined)?.s?.subgraph;
  if (!id) throw new Error(`${engine.label} has no deployment for ${engine.name}: ${JSON.stringify(answer)}`);
  return id;
}

/** Resolves with the head once every engine is synced at it, failed, or paused; rejects after `timeoutMs`. */
export interface SettleOptions {
  timeoutMs?: number;
  /** Shows each engine's catch-up (block of the head, rate, ETA) while the wait lasts. */
  progress?: ProgressBoard;
  /** The block the bars count from (the subgraph's start block). */
  startBlock?: number;
}

export async function waitUntilSettled(engines: Engine[], chainUrl: string, options: SettleOptions = {}): Promise<number> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  const chain = createJsonRpcClient({ url: chainUrl });
  const deadline = Date.now() + timeoutMs;
  let last: unknown[] = [];
  while (Date.now() < deadline) {
    const head = Number(await chain.request<string>("eth_blockNumber"));
    last = await Promise.all(engines.map(readStatus));
    if (options.progress) {
      for (const [i, s] of last.entries()) {
        const latest = "health" in (s as object) ? (s as ComparedStatus).latestBlock : null;
        options.progress.bar(`${i}`, engines[i]!.label, options.startBlock ?? 0).update({ block: latest === null ? null : Number(latest), head });
      }
    }
    const settled = last.every((s) => "health" in (s as object) && ((s as ComparedStatus).health === "failed" || (s as ComparedStatus).paused || ((s as ComparedStatus).synced && Number((s as ComparedStatus).latestBlock) >= head)));
    if (settled) return head;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the engines did not settle within ${timeoutMs} ms: ${JSON.stringify(last)}`);
}

/**
 * graph-node wraps a handler's error in wasmtime's backtrace ("error while executing at wasm backtrace:
 * 0: 0x322d - <unknown>!src/mapping.as/Handler: ...") and appends "in handler `H` at block #N (hash)".
 * The core is what is left: the message the mapping or the host raised.
 */
export function coreMessage(message: string): string {
  return message
    .replace(/error while executing at wasm backtrace:[\s\S]*<unknown>![^\s:]+: /, "")
    .replace(/ in handler `[^`]*` at block #\d+ \([0-9a-fx]+\)$/, "");
}

/** The status compared field by field, so that an accepted difference names exactly one field. */
export function statusSubjects(local: ComparedStatus | { error: string }, graphNode: ComparedStatus | { error: string }): [string, unknown, unknown][] {
  if (!("health" in local) || !("health" in graphNode)) return [["status", local, graphNode]];
  const out: [string, unknown, unknown][] = [
    ["status.health", local.health, graphNode.health],
    ["status.synced", local.synced, graphNode.synced],
    ["status.paused", local.paused, graphNode.paused],
    ["status.latestBlock", local.latestBlock, graphNode.latestBlock],
    ["status.earliestBlock", local.earliestBlock, graphNode.earliestBlock],
    ["status.historyBlocks", local.historyBlocks, graphNode.historyBlocks],
    ["status.entityCount", local.entityCount, graphNode.entityCount],
    ["status.fatalError", local.fatalError === null, graphNode.fatalError === null],
  ];
  if (local.fatalError && graphNode.fatalError) {
    out.push(
      ["status.fatalError.block", local.fatalError.block, graphNode.fatalError.block],
      ["status.fatalError.handler", local.fatalError.handler, graphNode.fatalError.handler],
      ["status.fatalError.message.core", coreMessage(local.fatalError.message), coreMessage(graphNode.fatalError.message)],
      ["status.fatalError.message", local.fatalError.message, graphNode.fatalError.message],
    );
  }
  // Non-fatal errors: how many, and each one's block, handler and message core.
  out.push(["status.nonFatalErrors", local.nonFatalErrors.map((e) => ({ ...e, message: coreMessage(e.message) })), graphNode.nonFatalErrors.map((e) => ({ ...e, message: coreMessage(e.message) }))]);
  return out;
}
