// The worker's list of data sources: the static ones, then those created by handlers, in creation
// order (graph-node's host order). `dataSource.create` queues a creation; `admit` adds the queued ones
// at the end of a block's triggers, skipping duplicates as graph-node does (same template, address
// and context as an existing data source).
import type { DataSourceInfo, EntityData } from "../../wasm-host/index.js";
import type { CreatedDataSource, WorkerDataSource, WorkerTemplate } from "./hostProtocol.js";
import { encodeContext } from "./contextCodec.js";
import { IndexerError } from "./errors.js";

export interface RuntimeDataSource {
  info: DataSourceInfo;
  wasmModule: WebAssembly.Module;
  apiVersion: string;
}

export interface DataSourceRegistry {
  readonly list: readonly RuntimeDataSource[];
  /** Queues a creation (called from `dataSource.create` while a handler runs). */
  queue(template: string, params: string[], context: EntityData | null): void;
  /** Adds the queued creations of block `creationBlock` that are not duplicates; answers them. */
  admit(creationBlock: number): CreatedDataSource[];
  /** Drops every data source past the first `count` and anything queued. */
  truncate(count: number): void;
}

function identity(template: string, param: string, context: EntityData | null): string {
  return `${template}\u0000${param}\u0000${context ? encodeContext(context) : ""}`;
}

export function createDataSourceRegistry(statics: WorkerDataSource[], templates: WorkerTemplate[], onCreate: DataSourceInfo["onCreate"]): DataSourceRegistry {
  const templateNames = templates.map((t) => t.name);
  const list: RuntimeDataSource[] = [];
  const identities: string[] = [];
  const known = new Set<string>();
  let queued: { template: string; param: string; context: EntityData | null }[] = [];

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

  const created = (template: string, param: string, context: EntityData | null): RuntimeDataSource => {
    const t = templates.find((x) => x.name === template);
    if (!t) throw new IndexerError(`no data source template named ${template}`);
    const info: DataSourceInfo = { name: t.name, address: param, network: t.network, context, templates: templateNames };
    if (onCreate) info.onCreate = onCreate;
    return { info, wasmModule: t.wasmModule, apiVersion: t.apiVersion };
  };

  return {
    list,
    queue(template, params, context) {
      const first = params[0];
      if (first === undefined) throw new IndexerError(`Failed to create data source from template \`${template}\`: address parameter is missing`);
      const hex = first.replace(/^0x/i, "");
      if (!/^[0-9a-fA-F]{40}$/.test(hex)) throw new IndexerError(`Failed to create data source from template \`${template}\`: invalid address provided: ${first}`);
      queued.push({ template, param: `0x${hex.toLowerCase()}`, context });
    },
    admit(creationBlock) {
      const out: CreatedDataSource[] = [];
      for (const q of queued) {
        const id = identity(q.template, q.param, q.context);
        if (known.has(id)) continue;
        push(created(q.template, q.param, q.context), id);
        out.push({ index: list.length - 1, template: q.template, param: q.param, context: q.context, creationBlock });
      }
      queued = [];
      return out;
    },
    truncate(count) {
      queued = [];
      while (list.length > count) {
        list.pop();
        known.delete(identities.pop()!);
      }
    },
  };
}

/** Registers data sources created before this worker started (reloaded from the store), in order. */
export function restoreCreated(registry: DataSourceRegistry, created: CreatedDataSource[]): void {
  for (const c of created) {
    registry.queue(c.template, [c.param], c.context);
    registry.admit(c.creationBlock);
  }
}
