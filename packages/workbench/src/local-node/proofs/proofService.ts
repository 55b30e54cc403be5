// Catches a deployment's proof of indexing up with its data: the journal entries the indexer committed
// with each block (local-node/poi's records) are hashed on a thread of their own, joined in block order
// to the digests before them, and written as `Poi$` versions at their blocks. The handlers' path only
// records; the hashing runs when a proof is asked for, or in the background once the deployment has
// synced. The digests are the ones hashing at once would have written (graph-node's, parity-checked).
import { POI_ENTITY_TYPE } from "../../subgraph-schema/index.js";
import type { EntityChange, EntityData } from "../../wasm-host/index.js";
import { createThreadedPoiHasher, joinDigests, type PoiHasher } from "../poi/index.js";
import { BLOCK_MAX, type NodeStore, type PoiDigestWrite } from "../store/index.js";
import { IDLE_TRIM_QUIET_MS } from "../../lib/idleHeapTrim.js";

export type ProofStore = Pick<NodeStore, "poiJournal" | "writePoiDigests" | "poiDigests">;

export interface ProofServiceOptions {
  store: ProofStore;
  log(level: "info" | "warning" | "error" | "debug", message: string): void;
  /** Journal entries hashed per transaction (default JOURNAL_CHUNK). */
  chunk?: number;
  /** Their bytes at most, past the first entry (default JOURNAL_CHUNK_BYTES). */
  chunkBytes?: number;
  /** How long a background catch-up waits before it starts (default BACKGROUND_DELAY_MS). */
  backgroundDelayMs?: number;
}

export interface ProofService {
  /** Hashes the deployment's journal into its digests, through `block` (all of it when omitted). */
  catchUp(id: string, block?: number): Promise<void>;
  /** A catch-up in the background (once the one running, if any, has ended); its errors are logged. */
  catchUpSoon(id: string): void;
  /** Ends the hashing thread and the catch-ups under way (a transaction under way still ends). */
  close(): Promise<void>;
}

/** Blocks hashed per transaction: enough to keep the hasher busy, few enough to answer a proof soon. */
export const JOURNAL_CHUNK = 64;
/** And their entries' bytes: a read this size grows the store's memory (PGlite's never shrinks) no further. */
export const JOURNAL_CHUNK_BYTES = 2 * 2 ** 20;
/**
 * A background catch-up starts this long after it is asked for: past the idle trim of the indexing
 * threads, so that the hashing thread's tens of MiB come after their heaps went back, not on top of
 * them (100,000 approvals: peaks of 430-445 MiB at once, 395-399 MiB with the wait). A proof asked
 * for meanwhile is hashed on demand.
 */
export const BACKGROUND_DELAY_MS = IDLE_TRIM_QUIET_MS + 500;
/** The hashing thread ends once it has had nothing to do this long (its heap is tens of MiB). */
const HASHER_IDLE_MS = 10_000;

export function createProofService(options: ProofServiceOptions): ProofService {
  const { store } = options;
  const chunk = { rows: options.chunk ?? JOURNAL_CHUNK, bytes: options.chunkBytes ?? JOURNAL_CHUNK_BYTES };
  let hasher: PoiHasher | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  const backgroundDelayMs = options.backgroundDelayMs ?? BACKGROUND_DELAY_MS;
  let closed = false;
  // One catch-up at a time per deployment: each waits for the one before it.
  const queues = new Map<string, Promise<void>>();
  const background = new Set<string>();

  function hasherNow(): PoiHasher {
    if (closed) throw new Error("the proof service is closed");
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    return (hasher ??= createThreadedPoiHasher());
  }

  function idleLater(): void {
    if (idleTimer || !hasher || queues.size > 0) return;
    idleTimer = setTimeout(() => {
      idleTimer = null;
      const h = hasher;
      hasher = null;
      void h?.close();
    }, HASHER_IDLE_MS);
    idleTimer.unref();
  }

  /** One chunk of the journal hashed and written; false once nothing (through `block`) is left. */
  async function step(id: string, block: number): Promise<boolean> {
    const rows = await store.poiJournal(id, chunk);
    if (rows.length === 0 || rows[0]!.block > block) return false;
    const h = hasherNow();
    const hashing = rows.map((r) => h.hash(r.entry));
    // Awaited in order below; a later one failing while an earlier one is awaited is not unhandled.
    for (const p of hashing) p.catch(() => undefined);
    // Every `Poi$` version lies below the journal's blocks: the current digests come before its first entry.
    const digests = new Map((await store.poiDigests(id, BLOCK_MAX)).map((d) => [d.region, d.digest]));
    const writes: PoiDigestWrite[] = [];
    for (const [i, row] of rows.entries()) {
      const hashed = await hashing[i]!;
      const changes: EntityChange[] = [];
      for (const { name, own } of hashed.regions) {
        const previous = digests.get(name) ?? null;
        const digest = joinDigests(hashed.version, previous, own);
        // graph-node writes no new version of a digest the block left as it was.
        if (previous && Buffer.from(previous).equals(digest)) continue;
        digests.set(name, digest);
        const data: EntityData = new Map([["id", { kind: "String", value: name }], ["digest", { kind: "Bytes", value: digest }]]);
        changes.push({ op: "set", entityType: POI_ENTITY_TYPE, id: name, data });
      }
      writes.push({ seq: row.seq, block: row.block, changes });
    }
    await store.writePoiDigests(id, writes);
    // Fewer written than hashed: a revert cut the journal meanwhile; the next step reads it again.
    return true;
  }

  async function run(id: string, block: number): Promise<void> {
    while (!closed && (await step(id, block)));
  }

  function enqueue(id: string, block: number): Promise<void> {
    const before = queues.get(id) ?? Promise.resolve();
    const mine = before.then(() => run(id, block));
    const tail = mine.catch(() => undefined);
    queues.set(id, tail);
    void tail.then(() => {
      if (queues.get(id) === tail) queues.delete(id);
      idleLater();
    });
    return mine;
  }

  return {
    catchUp: (id, block = BLOCK_MAX) => enqueue(id, block),
    catchUpSoon(id) {
      // One waiting background catch-up per deployment is enough: it reads the journal as it then is.
      if (closed || background.has(id)) return;
      background.add(id);
      const waited = new Promise<void>((resolve) => setTimeout(resolve, backgroundDelayMs).unref());
      const started = waited.then(() => queues.get(id)).then(() => background.delete(id));
      void started.then(() =>
        enqueue(id, BLOCK_MAX).catch((err: unknown) => {
          if (!closed) options.log("warning", `${id}: proof of indexing not caught up yet: ${err instanceof Error ? err.message : String(err)}`);
        }),
      );
    },
    async close() {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      // The hashing under way is dropped (its step ends without writing: the journal keeps the entries).
      const h = hasher;
      hasher = null;
      await h?.close();
      await Promise.all([...queues.values()]);
    },
  };
}
