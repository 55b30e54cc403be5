// Subgraph composition: a composed deployment's triggers are the entities its source deployments
// created, read from the store block by block, never from logs. It indexes only as far as every source
// has indexed (graph-node's chain head for it is the lowest of its sources' pointers), and not at all
// while a source's pointer is off the chain (a reorg it has not followed yet). In a block, triggers come
// by data source (manifest order), then by the order of the source's writes (graph-node: source index,
// then vid).
import { getBlocks, ChainReorgedError } from "../chain/index.js";
import type { EntityData } from "../../wasm-host/index.js";
import { getBlock } from "../chain/index.js";
import type { BlockJob, LoadedTrigger } from "./hostProtocol.js";
import type { IndexerContext } from "./indexerContext.js";
import { jobPtr, type LoadedRange } from "./rangeLoader.js";
import { IndexerError } from "./errors.js";
import type { IndexedDeployment, IndexedSubgraphDataSource } from "./types.js";

/** Blocks read from the sources per range. */
const SOURCE_RANGE = 1_000;

export function isComposed(deployment: IndexedDeployment): boolean {
  return (deployment.subgraphDataSources?.length ?? 0) > 0;
}

/**
 * The data sources the handlers' thread keeps across a reset (after a revert or an error): the loader's
 * list (onchain ones, then created ones) plus the subgraph data sources, which only the thread runs.
 */
export function workerDataSourceCount(ctx: IndexerContext): number {
  return ctx.sources.list.length + (ctx.deployment.subgraphDataSources?.length ?? 0);
}

/** `dataSource.address()` of a subgraph data source: the source's id as UTF-8 bytes (graph-node's to_bytes), as hex. */
export function sourceAddressHex(source: string): string {
  return `0x${Buffer.from(source, "utf8").toString("hex")}`;
}

/**
 * The highest block the composed deployment may index now: the lowest source pointer (at most the chain's
 * head); null to wait (a source not indexed yet, or whose pointer the chain no longer has).
 */
export async function sourcesHead(ctx: IndexerContext, chainHead: number): Promise<number | null> {
  let head = chainHead;
  for (const ds of ctx.deployment.subgraphDataSources ?? []) {
    const source = await ctx.store.getDeployment(ds.source);
    // graph-node's instance manager refuses to start without it; retried, as a non-deterministic error.
    if (!source) throw new IndexerError(`no active deployment for hash ${ds.source}`, { deterministic: false });
    const ptr = source.latestBlock;
    if (!ptr) return null;
    if ((await getBlock(ctx.rpc, ptr.number))?.hash !== ptr.hash) return null;
    head = Math.min(head, ptr.number);
  }
  return head;
}

type EntityTrigger = Extract<LoadedTrigger, { kind: "entity" }>;

/** The handler for an entity type: graph-node takes the last listed and refuses a second. */
function handlerFor(ds: IndexedSubgraphDataSource, entityType: string): string | null {
  const matching = ds.handlers.filter((h) => h.entity === entityType);
  if (matching.length > 1) throw new IndexerError(`Multiple handlers defined for entity \`${entityType}\`, only one is supported`, { deterministic: false });
  return matching[0]?.handler ?? null;
}

/** The composed deployment's block jobs for blocks `from`..`to` (at most SOURCE_RANGE of them). */
export async function loadSourceRange(ctx: IndexerContext, from: number, head: number): Promise<LoadedRange> {
  const to = Math.min(head, from + SOURCE_RANGE - 1);
  const read = ctx.store.entitiesCreatedIn;
  if (!read) throw new IndexerError("this store cannot read source deployments' entities (subgraph composition)");
  const byBlock = new Map<number, { trigger: Omit<EntityTrigger, "timestamp">; }[]>();
  const base = ctx.deployment.dataSources.length;
  let count = 0;
  for (const [i, ds] of (ctx.deployment.subgraphDataSources ?? []).entries()) {
    const start = Math.max(from, ds.startBlock);
    if (start > to) continue;
    const types = [...new Set(ds.handlers.map((h) => h.entity))];
    for (const created of await read.call(ctx.store, ds.source, types, start, to)) {
      const handler = handlerFor(ds, created.entityType);
      if (handler === null) continue;
      const list = byBlock.get(created.block) ?? [];
      list.push({ trigger: { kind: "entity", dataSource: base + i, handler, entityType: created.entityType, entity: created.data as EntityData } });
      byBlock.set(created.block, list);
      count++;
    }
  }
  const numbers = [...new Set([...byBlock.keys(), to])].sort((a, b) => a - b);
  const blocks = await getBlocks(ctx.rpc, numbers, false);
  const jobs: BlockJob[] = [];
  let end: BlockJob["ptr"] | null = null;
  numbers.forEach((n, j) => {
    const block = blocks[j];
    if (!block) throw new ChainReorgedError(`block ${n} is gone (the chain reorganised or shrank)`);
    const ptr = jobPtr(block);
    if (n === to) end = ptr;
    const triggers = byBlock.get(n);
    if (triggers) jobs.push({ ptr, triggers: triggers.map((t) => ({ ...t.trigger, timestamp: ptr.timestamp })) });
  });
  return { jobs, end: end!, events: count };
}
