// The worker's list of data sources: the static ones, then those created by handlers, in creation
// order (graph-node's host order). `dataSource.create` queues a creation; `admit` adds the queued ones
// at the end of a block's triggers, skipping duplicates as graph-node does (same template, source and
// context as an existing data source, done or not). A file data source gets the next causality region
// and is created with an IPFS path, which is checked and made canonical here; graph-node ignores a
// creation whose path names no valid CID, with a warning.
import type { DataSourceInfo, EntityData } from "../../wasm-host/index.js";
// The parser's own door: IPFS's front door would load its store and server into the handlers' thread.
import { parseContentPath } from "../ipfs/contentPath.js";
import type { CreatedDataSource, WorkerDataSource, WorkerTemplate } from "./hostProtocol.js";
import { encodeContext } from "./contextCodec.js";
import { IndexerError } from "./errors.js";

export interface RuntimeDataSource {
  info: DataSourceInfo;
  wasmModule: WebAssembly.Module;
  apiVersion: string;
  /** A file data source: its handler, its causality region, and whether its file was processed. */
  file?: { handler: string; region: number; done: boolean };
}

export interface DataSourceRegistry {
  readonly list: readonly RuntimeDataSource[];
  /** Queues a creation (called from `dataSource.create` while a handler runs). */
  queue(template: string, params: string[], context: EntityData | null): void;
  /** Adds the queued creations of block `creationBlock` that are not duplicates; answers them. */
  admit(creationBlock: number): CreatedDataSource[];
  /** Drops every data source past the first `count` and anything queued. */
  truncate(count: number): void;
  /** Creations queued and not admitted yet. */
  readonly queuedCount: number;
  /** Forgets the creations queued after the first `count` (a skipped handler's). */
  dropQueued(count: number): void;
}

function identity(template: string, param: string, context: EntityData | null): string {
  return `${template}\u0000${param}\u0000${context ? encodeContext(context) : ""}`;
}

type Warn = (message: string) => void;

export function createDataSourceRegistry(statics: WorkerDataSource[], templates: WorkerTemplate[], onCreate: DataSourceInfo["onCreate"], warn: Warn = () => {}): DataSourceRegistry {
  const templateNames = templates.map((t) => t.name);
  const list: RuntimeDataSource[] = [];
  const identities: string[] = [];
  const known = new Set<string>();
  let queued: { template: string; param: string; context: EntityData | null }[] = [];
  let lastRegion = 0;

  const push = (ds: RuntimeDataSource, id: string): void => {
    list.push(ds);
    identities.push(id);
    known.add(id);
  };
  for (const ds of statics) {
    const info: DataSourceInfo = { name: ds.name, address: ds.address, network: ds.network, context: ds.context ?? null, templates: ds.templates ?? templateNames };
    if (onCreate) info.onCreate = onCreate;
    push({ info, wasmModule: ds.wasmModule, apiVersion: ds.apiVersion }, `static\u0000${list.length}`);
  }

  const templateNamed = (name: string): WorkerTemplate => {
    const t = templates.find((x) => x.name === name);
    if (!t) throw new IndexerError(`no data source template named ${name}`);
    return t;
  };

  const created = (t: WorkerTemplate, param: string, context: EntityData | null, region: number): RuntimeDataSource => {
    const info: DataSourceInfo = { name: t.name, address: param, network: t.network, context, templates: templateNames };
    if (onCreate) info.onCreate = onCreate;
    if (!t.file) return { info, wasmModule: t.wasmModule, apiVersion: t.apiVersion };
    return { info: { ...info, kind: "file/ipfs", entities: t.file.entities }, wasmModule: t.wasmModule, apiVersion: t.apiVersion, file: { handler: t.file.handler, region, done: false } };
  };

  /** The canonical source of a queued creation, or null when graph-node would ignore it. */
  const sourceOf = (t: WorkerTemplate, param: string): string | null => {
    if (!t.file) return param;
    try {
      return parseContentPath(param);
    } catch (error) {
      warn(`Ignoring the creation of data source \`${t.name}\`: ${param} is not a valid IPFS path: ${(error as Error).message}`);
      return null;
    }
  };

  return {
    list,
    get queuedCount() {
      return queued.length;
    },
    dropQueued(count) {
      queued.length = Math.min(queued.length, count);
    },
    queue(template, params, context) {
      const t = templateNamed(template);
      const first = params[0];
      if (first === undefined) throw new IndexerError(`Failed to create data source from template \`${template}\`: ${t.file ? "source" : "address"} parameter is missing`);
      if (t.file) {
        queued.push({ template, param: first, context });
        return;
      }
      const hex = first.replace(/^0x/i, "");
      if (!/^[0-9a-fA-F]{40}$/.test(hex)) throw new IndexerError(`Failed to create data source from template \`${template}\`: invalid address provided: ${first}`);
      queued.push({ template, param: `0x${hex.toLowerCase()}`, context });
    },
    admit(creationBlock) {
      const out: CreatedDataSource[] = [];
      const batch = queued;
      queued = [];
      for (const q of batch) {
        const t = templateNamed(q.template);
        const param = sourceOf(t, q.param);
        if (param === null) continue;
        const id = identity(q.template, param, q.context);
        if (known.has(id)) continue;
        const region = t.file ? ++lastRegion : 0;
        push(created(t, param, q.context, region), id);
        const entry: CreatedDataSource = { index: list.length - 1, template: q.template, param, context: q.context, creationBlock };
        out.push(t.file ? { ...entry, causalityRegion: region, doneAt: null } : entry);
      }
      return out;
    },
    truncate(count) {
      queued = [];
      while (list.length > count) {
        list.pop();
        known.delete(identities.pop()!);
      }
      lastRegion = Math.max(0, ...list.map((d) => d.file?.region ?? 0));
    },
  };
}

/** Registers data sources created before this worker started (reloaded from the store), in order. */
export function restoreCreated(registry: DataSourceRegistry, created: CreatedDataSource[]): void {
  for (const c of created) {
    registry.queue(c.template, [c.param], c.context);
    registry.admit(c.creationBlock);
    const file = registry.list[registry.list.length - 1]?.file;
    if (file) {
      // The stored region stands; the next one follows the highest restored.
      file.region = c.causalityRegion ?? file.region;
      file.done = c.doneAt !== null && c.doneAt !== undefined;
    }
  }
  registry.truncate(registry.list.length);
}
