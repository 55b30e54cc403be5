// The main thread's view of a deployment's data sources: the static ones, then those created by
// handlers (reloaded from the store on start), each with its log decoder and block handlers, and the
// log filter that covers them all. Indexes match the worker's registry (same order of creation).
import type { LogFilter } from "../chain/index.js";
import { createLogDecoder, type LogDecoder } from "./decode.js";
import { createCallDecoder, type CallDecoder } from "./callDecoder.js";
import type { CreatedDataSource } from "./hostProtocol.js";
import type { IndexedBlockHandler, IndexedDeployment, IndexedMapping } from "./types.js";
import { IndexerError } from "./errors.js";

export interface LoaderDataSource {
  /** Index in the deployment's data source list (the trigger's `dataSource`). */
  index: number;
  /** A file data source: it has no logs or blocks to load (its file is the worker's business). */
  file?: boolean;
  address: string | null;
  startBlock: number;
  /** No triggers after this block (null: none). */
  endBlock?: number | null;
  decoder: LogDecoder;
  blockHandlers: IndexedBlockHandler[];
  /** Its call handlers (null: none): every block's transactions are traced for calls to it. */
  calls?: CallDecoder | null;
}

/** Whether a data source reads call traces: call handlers, or a block handler with `filter: {kind: call}`. */
export function tracesCalls(ds: LoaderDataSource): boolean {
  return (ds.calls ?? null) !== null || ds.blockHandlers.some((h) => h.filter?.kind === "call");
}

export interface LiveDataSources {
  readonly list: readonly LoaderDataSource[];
  /** The eth_getLogs filter for every data source; recomputed when data sources are added. */
  readonly filter: LogFilter;
  /** True when some data source has block or call handlers (ranges then need every block). */
  readonly hasBlockHandlers: boolean;
  /** Loader entries for data sources just created (not yet added), e.g. to find their triggers. */
  describe(created: CreatedDataSource[]): LoaderDataSource[];
  add(created: CreatedDataSource[]): void;
  /** Keeps the static data sources and the first `createdCount` created ones. */
  truncate(createdCount: number): void;
  readonly staticCount: number;
  readonly createdCount: number;
}

function topicsOf(mapping: IndexedMapping): string[] {
  return mapping.eventHandlers.map((h) => h.topic0.toLowerCase());
}

export function createLiveDataSources(deployment: IndexedDeployment): LiveDataSources {
  const templates = new Map<string, { mapping: IndexedMapping; decoder: LogDecoder; calls: CallDecoder | null }>();
  for (const t of deployment.templates ?? []) {
    if ("abis" in t) templates.set(t.name, { mapping: t, decoder: createLogDecoder(t.abis[t.abiName] ?? [], t.eventHandlers), calls: createCallDecoder(t.callHandlers ?? []) });
  }
  const list: LoaderDataSource[] = deployment.dataSources.map((ds, index) => ({
    index,
    address: ds.address?.toLowerCase() ?? null,
    startBlock: ds.startBlock,
    endBlock: ds.endBlock ?? null,
    decoder: createLogDecoder(ds.abis[ds.abiName] ?? [], ds.eventHandlers),
    blockHandlers: ds.blockHandlers ?? [],
    calls: createCallDecoder(ds.callHandlers ?? []),
  }));
  const staticCount = list.length;
  // Topics per source, static ones fixed; a created source adds its template's topics.
  const staticTopics = deployment.dataSources.flatMap(topicsOf);

  let filter: LogFilter = { addresses: [], topic0s: [] };
  function refilter(): void {
    const topics = new Set(staticTopics);
    const contracts = list.filter((d) => !d.file);
    for (const ds of contracts.slice(staticCount)) for (const t of topicsOf(templateOf(ds))) topics.add(t);
    filter = {
      addresses: contracts.some((d) => d.address === null) ? [] : [...new Set(contracts.map((d) => d.address!))],
      topic0s: [...topics],
    };
  }
  const fileTemplates = new Set((deployment.fileTemplates ?? []).map((t) => t.name));
  const noLogs = createLogDecoder([], []);
  const templateByIndex = new Map<number, IndexedMapping>();
  function templateOf(ds: LoaderDataSource): IndexedMapping {
    return templateByIndex.get(ds.index)!;
  }

  function describe(created: CreatedDataSource[]): LoaderDataSource[] {
    return created.map((c): LoaderDataSource => {
      // Kept in the list so that indexes match the worker's; never matched by a log or a block.
      if (fileTemplates.has(c.template)) return { index: c.index, file: true, address: null, startBlock: c.creationBlock, endBlock: null, decoder: noLogs, blockHandlers: [] };
      const t = templates.get(c.template);
      if (!t) throw new IndexerError(`no data source template named ${c.template}`);
      templateByIndex.set(c.index, t.mapping);
      // A created data source starts at its creation block (graph-node's start_block for templates).
      return { index: c.index, address: c.param, startBlock: c.creationBlock, endBlock: null, decoder: t.decoder, blockHandlers: t.mapping.blockHandlers ?? [], calls: t.calls };
    });
  }

  refilter();
  return {
    get list() {
      return list;
    },
    get filter() {
      return filter;
    },
    get hasBlockHandlers() {
      return list.some((d) => d.blockHandlers.length > 0 || tracesCalls(d));
    },
    describe,
    add(created) {
      for (const ds of describe(created)) {
        if (ds.index !== list.length) throw new IndexerError(`created data source ${ds.index} arrives out of order (expected ${list.length})`);
        list.push(ds);
      }
      refilter();
    },
    truncate(createdCount) {
      list.length = Math.min(list.length, staticCount + createdCount);
      refilter();
    },
    staticCount,
    get createdCount() {
      return list.length - staticCount;
    },
  };
}
