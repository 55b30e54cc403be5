// The `Poi$` changes of the blocks a run indexed: each block's hashed streams joined, in block order,
// to the region's digest before it. A run answers its results as soon as its handlers are done, and its
// proofs follow once the hashing thread is through with its blocks, so that the next run's handlers
// execute while this run's blocks are hashed (the commit of a run waits for its proofs).
import type { EntityChange, EntityData } from "../../wasm-host/index.js";
import { joinDigests, type HashedRegions, type PoiVersion } from "../poi/index.js";
import { POI_ENTITY_TYPE } from "../store/index.js";
import { IndexerError } from "./errors.js";

export interface BlockProofs {
  /**
   * Reads the region's digest from the store, unless known: called before a run's handlers, never while
   * proofs are awaited (a store read waits for the commit in flight, which waits for its proofs).
   */
  prepare(region: string): void;
  /** Each block's `Poi$` changes (its streams being hashed), in block order, after every run followed before. */
  follow(blocks: Promise<HashedRegions>[]): Promise<EntityChange[][]>;
  /** A failed block's `Poi$` changes, after the runs followed before; the digests stay as they were. */
  failed(block: Promise<HashedRegions>): Promise<EntityChange[]>;
  /** Forgets the digests (read from the store again); proofs of runs followed before reject. */
  reset(): void;
}

/** `readStored(region)`: the digest the store holds for a causality region, null when none. */
export function createBlockProofs(version: PoiVersion, readStored: (region: string) => Uint8Array | null): BlockProofs {
  // Each region's digest after the last block joined; a region not here is read from the store.
  let digests = new Map<string, Uint8Array | null>();
  let generation = 0;
  let chain: Promise<unknown> = Promise.resolve();

  function previousDigest(region: string): Uint8Array | null {
    const digest = digests.get(region);
    if (digest === undefined) throw new IndexerError(`proof of indexing: no digest was prepared for ${region}`);
    return digest;
  }

  function changesOf(regions: HashedRegions, keep: boolean): EntityChange[] {
    return regions.flatMap(({ name, own }): EntityChange[] => {
      const previous = previousDigest(name);
      const digest = joinDigests(version, previous, own);
      // A block that left the region's digest as it was writes no new version (graph-node's entity cache).
      if (previous && Buffer.from(previous).equals(digest)) return [];
      if (keep) digests.set(name, digest);
      const data: EntityData = new Map([["id", { kind: "String", value: name }], ["digest", { kind: "Bytes", value: digest }]]);
      return [{ op: "set", entityType: POI_ENTITY_TYPE, id: name, data }];
    });
  }

  const dropped = () => new IndexerError("proof of indexing dropped: the host was reset");

  /** Runs `step` after everything queued before; `current()` says whether no reset came since it was queued. */
  function queue<T>(step: (current: () => boolean) => Promise<T>): Promise<T> {
    const at = generation;
    const current = () => at === generation;
    const next = chain.then(() => {
      if (!current()) throw dropped();
      return step(current);
    });
    // The chain goes on after a failed step; whoever awaits `next` gets its error.
    chain = next.catch(() => undefined);
    return next;
  }

  return {
    prepare(region) {
      if (!digests.has(region)) digests.set(region, readStored(region));
    },
    follow(blocks) {
      return queue(async (current) => {
        const out: EntityChange[][] = [];
        for (const hashed of blocks) {
          const regions = await hashed;
          if (!current()) throw dropped();
          out.push(changesOf(regions, true));
        }
        return out;
      });
    },
    failed(hashed) {
      return queue(async (current) => {
        const regions = await hashed;
        if (!current()) throw dropped();
        return changesOf(regions, false);
      });
    },
    reset() {
      generation++;
      digests = new Map();
    },
  };
}
