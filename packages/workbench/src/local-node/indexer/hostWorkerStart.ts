// Starts the deployment's host worker and answers its store and chain requests.
import { createHostWorker, type HostWorker } from "./hostWorkerClient.js";
import { allEntityIds } from "./entityIds.js";
import { contextToEntity } from "./manifestContext.js";
import type { IndexerContext } from "./indexerContext.js";
import type { EntityFork } from "./types.js";
import type { EntityData } from "../../wasm-host/index.js";
import { triggersIn } from "./createdDataSources.js";
import { onchainRegion, poiVersionOf } from "../poi/index.js";
import { mappingLogRecord } from "./deploymentLog.js";
import { sourceAddressHex } from "./sourceTriggers.js";

/** A deployment given without its manifest's specVersion is taken as the oldest graph-cli writes today. */
const DEFAULT_SPEC_VERSION = "0.0.5";

export async function startWorker(ctx: IndexerContext): Promise<HostWorker> {
  const { deployment, store, id, services } = ctx;
  const copyPlan = (await store.copyPlan?.(id)) ?? null;
  return createHostWorker({
    ...(ctx.options.hostThreads ? { thread: ctx.options.hostThreads.take() } : {}),
    schemaSdl: deployment.schemaSdl,
    dataSources: deployment.dataSources.map((ds) => ({
      name: ds.name,
      wasmModule: ds.wasmModule,
      ...bytesOf(ds),
      apiVersion: ds.apiVersion,
      address: ds.address?.toLowerCase() ?? "",
      network: ds.network,
      context: contextToEntity(ds.context),
      templates: [...(deployment.templates ?? []), ...(deployment.fileTemplates ?? [])].map((t) => t.name),
    })).concat(
      // Subgraph data sources run after the onchain ones in the worker's list (a manifest has one kind or the other).
      (deployment.subgraphDataSources ?? []).map((ds) => ({ name: ds.name, wasmModule: ds.wasmModule, ...bytesOf(ds), apiVersion: ds.apiVersion, address: sourceAddressHex(ds.source), network: ds.network, context: contextToEntity(ds.context), templates: [] })),
    ),
    templates: [
      ...(deployment.templates ?? []).map((t) => ({ name: t.name, wasmModule: t.wasmModule, ...bytesOf(t), apiVersion: t.apiVersion, network: t.network })),
      ...(deployment.fileTemplates ?? []).map((t) => ({ name: t.name, wasmModule: t.wasmModule, ...bytesOf(t), apiVersion: t.apiVersion, network: t.network, file: { handler: t.handler, entities: t.entities } })),
    ],
    created: ctx.created,
    ...(deployment.features?.includes("nonFatalErrors") ? { nonFatalErrors: true } : {}),
    ...(ctx.options.proofOfIndexing === false ? {} : { poi: { version: poiVersionOf(deployment.specVersion ?? DEFAULT_SPEC_VERSION), region: onchainRegion(deployment.network) } }),
    ...(copyPlan ? { copyPlan } : {}),
    log: ctx.log,
    onProfile: (delta) => ctx.profile.add(delta),
    ...(ctx.options.instrumentation === false ? { profile: false } : {}),
    mappingLog: (level, message, origin) => {
      ctx.options.log(level, `${id}: [${origin.dataSource}] ${message}`);
      store.recordLog?.(id, mappingLogRecord(level, message, origin));
    },
    // Reads wait for the commit in flight at the time of the read (ctx.committing changes per group).
    services: {
      getEntity: async (type, eid) => (await ctx.committing, store.getEntity(id, type, eid)),
      entityIds: async (type) => (await ctx.committing, allEntityIds(store, id, type)),
      getDerived: async (type, field, eid) => (await ctx.committing, store.getDerived ? store.getDerived(id, type, field, eid) : []),
      ethereumCall: services.ethereumCall,
      getBalance: services.getBalance,
      hasCode: services.hasCode,
      triggersIn: (block, created) => triggersIn(ctx, block, created),
      ...(ctx.options.readFile ? { readFile: ctx.options.readFile } : {}),
      ...(ctx.options.fork ? { forkFetch: forkFetch(ctx.options.fork) } : {}),
    },
  });
}

/** The fork's fetch, bound to it (it keeps which entities it fetched). */
function forkFetch(fork: EntityFork): (entityType: string, id: string) => Promise<EntityData | null> {
  return (entityType, id) => fork.fetch(entityType, id);
}

/** The mapping's bytes when the deployment has them (the worker then caps its memory). */
function bytesOf(m: { wasmBytes?: Uint8Array }): { wasmBytes?: Uint8Array } {
  return m.wasmBytes ? { wasmBytes: m.wasmBytes } : {};
}
