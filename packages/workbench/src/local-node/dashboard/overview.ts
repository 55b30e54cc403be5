// The dashboard's JSON beside the status API: names and versions, entities per type, the store's size,
// rates and time to the head, the handler profile, errors with where they happened, recent log lines.
import type { BlockPtr } from "../../wasm-host/index.js";
import type { FailureTrap, HandlerProfileRow } from "../indexer/index.js";
import type { ProfileDelta } from "../indexer/index.js";
import type { DeploymentRecord, DeploymentSize, SubgraphVersionRow } from "../store/index.js";
import { placeOf } from "./errorLocation.js";
import type { LogLine } from "./logBuffer.js";
import { createRateTracker, type Rates } from "./rates.js";

export interface DashboardSources {
  deployments(): Promise<DeploymentRecord[]>;
  versions(): Promise<SubgraphVersionRow[]>;
  entityCounts(id: string): Promise<Record<string, number>>;
  size(id: string): Promise<DeploymentSize>;
  nonFatalErrors(id: string): Promise<{ message: string; block: BlockPtr | null; handler: string | null }[]>;
  isIndexing(id: string): boolean;
  /** A deployment's handler profile since the node started it; null when it never ran here. */
  profile(id: string): ProfileDelta | null;
  chainHead(network: string): Promise<BlockPtr | null>;
  logs(): LogLine[];
  /** When the node started indexing it and from which block: the averages count from there (else from the first overview). */
  startedFrom?(id: string): { at: number; block: number | null } | null;
  /** Where a deployment's last handler failure happened in its source, when the node knows (the log's trap location). */
  failureLocation?(id: string): string | null;
  /** That failure's wasm frames and data source, for a client that places them with its own source map. */
  trap?(id: string): FailureTrap | null;
  /** Takes a deployment's data source's source map (POSTed by the dev loop); throws saying why it is none. */
  registerSourceMap?(id: string, dataSource: string, sourceMapText: string): void;
  /** The node's other endpoints, once they listen. */
  links(): { status: string; metrics: string | null };
}

export interface DashboardError {
  kind: "fatal" | "non-fatal";
  message: string;
  block: number | null;
  handler: string | null;
  transaction: string | null;
  location: string | null;
}

export interface DeploymentOverview {
  id: string;
  names: { name: string; label: string | null; role: "current" | "pending" }[];
  network: string;
  health: string;
  synced: boolean;
  paused: boolean;
  indexing: boolean;
  startBlock: number;
  latestBlock: number | null;
  chainHead: number | null;
  rates: Rates;
  entities: Record<string, number>;
  storeBytes: number;
  errors: DashboardError[];
  profile: HandlerProfileRow[];
}

export interface Overview {
  links: { status: string; metrics: string | null };
  deployments: DeploymentOverview[];
  logs: LogLine[];
}

/** Entity counts and sizes are asked of the store at most this often (PGlite has one connection, shared with indexing). */
const STORE_READS_EVERY_MS = 3_000;

export function createOverview(sources: DashboardSources): () => Promise<Overview> {
  const rates = createRateTracker();
  const storeReads = new Map<string, { at: number; entities: Record<string, number>; storeBytes: number }>();
  async function fromStore(id: string): Promise<{ entities: Record<string, number>; storeBytes: number }> {
    const kept = storeReads.get(id);
    if (kept && Date.now() - kept.at < STORE_READS_EVERY_MS) return kept;
    const read = { at: Date.now(), entities: await sources.entityCounts(id).catch(() => ({})), storeBytes: Number((await sources.size(id).catch(() => null))?.totalSize ?? 0) };
    storeReads.set(id, read);
    return read;
  }
  const since = (d: DeploymentRecord) => {
    const from = sources.startedFrom?.(d.id);
    // No handler had run when it started: events from 0, blocks from the one before its start block.
    return from ? { at: from.at, block: from.block ?? d.startBlock - 1, events: 0 } : undefined;
  };
  return async () => {
    const [deployments, versions] = await Promise.all([sources.deployments(), sources.versions()]);
    const heads = new Map<string, number | null>();
    for (const network of new Set(deployments.map((d) => d.network))) heads.set(network, (await sources.chainHead(network).catch(() => null))?.number ?? null);
    const out: DeploymentOverview[] = [];
    for (const d of deployments) {
      const profile = sources.profile(d.id);
      const events = profile?.handlers.reduce((n, r) => n + r.calls, 0) ?? 0;
      const head = heads.get(d.network) ?? null;
      const errors: DashboardError[] = [];
      const located = sources.failureLocation?.(d.id) ?? null;
      if (d.fatalError) errors.push({ kind: "fatal", message: d.fatalError.message, block: d.fatalError.block?.number ?? null, ...withLocation(placeOf(d.fatalError.message), located, d.fatalError.handler) });
      for (const e of await sources.nonFatalErrors(d.id).catch(() => [])) errors.push({ kind: "non-fatal", message: e.message, block: e.block?.number ?? null, ...withLocation(placeOf(e.message), null, e.handler) });
      out.push({
        id: d.id,
        names: versions.filter((v) => v.deployment === d.id).map(({ name, label, role }) => ({ name, label, role })),
        network: d.network,
        health: d.health,
        synced: d.synced,
        paused: d.paused,
        indexing: sources.isIndexing(d.id),
        startBlock: d.startBlock,
        latestBlock: d.latestBlock?.number ?? null,
        chainHead: head,
        rates: rates.sample(d.id, { block: d.latestBlock?.number ?? null, head, events }, since(d)),
        ...(await fromStore(d.id)),
        errors,
        profile: profile?.handlers ?? [],
      });
    }
    return { links: sources.links(), deployments: out, logs: sources.logs() };
  };
}

function withLocation(place: ReturnType<typeof placeOf>, located: string | null, handler: string | null): Omit<DashboardError, "kind" | "message" | "block"> {
  return { handler: handler ?? place.handler, transaction: place.transaction, location: place.location ?? located };
}
