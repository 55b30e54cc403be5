// Instantiates a mapping module: links the host imports by name, runs `_start` (apiVersion >= 0.0.5),
// builds ethereum.Event objects for handlers and turns every failure into a HostError.
import type { BigIntLike, BytesLike, EntityData, HostContext, HostOptions, SubgraphInstance } from "./types.js";
import type { HostEnv } from "./host/env.js";
import { HostError, HostLinkError } from "./errors.js";
import { checkMappingExports, createAscHeap, type MappingExports } from "./abi/heap.js";
import { createAscCodec } from "./abi/codec.js";
import { createEthereumObjectWriter, eventLayoutFor } from "./abi/ethereumObjects.js";
import { createHostStore } from "./store/hostStore.js";
import { hostFunctions, linkImports } from "./imports.js";
import { reusableMemoryOf } from "./reusableMemory.js";

const DEFAULT_RECYCLE_BYTES = 256 * 1024 * 1024;

/** graph-node's deterministic trap kinds all surface in V8 as RuntimeError (or a stack overflow RangeError). */
export function toHostError(error: unknown, handler: string | null): HostError {
  if (error instanceof HostError) {
    error.handler ??= handler ?? undefined;
    return error;
  }
  if (error instanceof WebAssembly.RuntimeError || (error instanceof RangeError && /call stack/i.test(error.message))) {
    return new HostError("TRAP", `wasm trap: ${error.message}`, { handler, cause: error });
  }
  // Reads through a pointer outside module memory: the module is at fault, deterministically.
  if (error instanceof RangeError && /bounds|offset/i.test(error.message)) {
    return new HostError("MEMORY", `out-of-bounds memory access: ${error.message}`, { handler, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HostError("TRAP", message, { handler, cause: error, deterministic: false });
}

function apiPatch(apiVersion: string): number {
  return Number(/^0\.0\.(\d+)$/.exec(apiVersion)?.[1] ?? 0);
}

function checkApiVersion(apiVersion: string): void {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(apiVersion);
  const ok = m !== null && Number(m[1]) === 0 && Number(m[2]) === 0 && Number(m[3]) >= 5;
  if (!ok) throw new HostLinkError(`apiVersion ${apiVersion} is not supported: this host runs AssemblyScript >= 0.19 mappings (apiVersion >= 0.0.5)`);
}

/** Compiles (if needed), links every import by name and runs `_start`. */
export async function instantiateSubgraph(wasm: Uint8Array | WebAssembly.Module, options: HostOptions): Promise<SubgraphInstance> {
  checkApiVersion(options.apiVersion);
  const module = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm as Uint8Array<ArrayBuffer>);
  const recycleBytes = options.recycleMemoryBytes ?? DEFAULT_RECYCLE_BYTES;

  let exports: WebAssembly.Exports = {};
  let mapping: MappingExports | null = null;
  let handler: string | null = null;
  const current = (): MappingExports => {
    if (mapping === null) throw new HostError("MEMORY", "the module is not instantiated yet");
    return mapping;
  };
  // The heap talks to whichever instance is current, so the codec survives re-instantiation.
  const forward: MappingExports = {
    get memory() {
      return current().memory;
    },
    allocate: (size) => current().allocate(size),
    id_of_type: (typeId) => current().id_of_type(typeId),
  };
  const heap = createAscHeap(forward);
  const codec = createAscCodec(heap);
  const store = options.entityCache ?? createHostStore(options.schema, options.store, { rejectUndefinedFields: apiPatch(options.apiVersion) >= 8 });
  let dataSource = options.dataSource;
  const writer = createEthereumObjectWriter(codec, eventLayoutFor(options.apiVersion));

  const env: HostEnv = {
    codec,
    store,
    options,
    block: () => store.block,
    dataSource: () => dataSource,
    handler: () => handler,
    exports: () => exports,
  };
  const context: HostContext = {
    codec,
    store,
    options,
    get block() {
      return store.block;
    },
    get handler() {
      return handler;
    },
    get exports() {
      return exports;
    },
  };
  const functions = { ...hostFunctions(env), ...(options.extraImports?.(context) ?? {}) };
  // A module compiled with its memory imported (reusableMemory.ts) runs every instance on this one.
  const memoryDescriptor = reusableMemoryOf(module);
  const ownMemory = memoryDescriptor ? new WebAssembly.Memory(memoryDescriptor) : null;
  const imports = linkImports(module, functions, ownMemory);

  const start = (instance: WebAssembly.Instance) => {
    exports = instance.exports;
    mapping = checkMappingExports(exports);
    heap.reset(forward);
    writer.reset();
    const startFn = exports["_start"];
    if (typeof startFn !== "function") throw new HostLinkError("`_start` function not found");
    handler = "_start";
    try {
      (startFn as () => void)();
    } catch (error) {
      throw toHostError(error, "_start");
    } finally {
      handler = null;
    }
  };
  start(await WebAssembly.instantiate(module, imports));

  // On a reused memory: how far any instance has written, so that a restart zeroes no more than that.
  let dirtyEnd = 0;
  const restartIfGrown = (limitBytes: number): boolean => {
    if (ownMemory) {
      // The stub runtime never frees: a zero-byte allocation returns the top of the mapping's heap. The
      // memory itself doubles as it grows, so its size says little once it is reused.
      const top = current().allocate(0) >>> 0;
      if (top <= limitBytes) return false;
      // A fresh instance sees zeroed memory (AssemblyScript leaves zero-initialised statics out of its
      // data segments); the new instance writes the data segments again. Nothing is written above the
      // top; the 64 bytes past it only spare reasoning about the zero-byte block's own rounding.
      dirtyEnd = Math.min(Math.max(dirtyEnd, top + 64), ownMemory.buffer.byteLength);
      new Uint8Array(ownMemory.buffer, 0, dirtyEnd).fill(0);
    } else if (current().memory.buffer.byteLength <= limitBytes) {
      return false;
    }
    start(new WebAssembly.Instance(module, imports));
    return true;
  };
  const recycleIfLarge = () => {
    if (recycleBytes !== Infinity) restartIfGrown(recycleBytes);
  };

  const exported = (name: string): ((...args: unknown[]) => unknown) => {
    const fn = exports[name];
    if (typeof fn !== "function") throw new HostError("LINK", `function ${name} not found`, { handler: name });
    return fn as (...args: unknown[]) => unknown;
  };

  /** One trigger: write its argument, call the handler, roll back its writes if it fails. */
  const runTrigger = (name: string, blockTimestamp: BigIntLike | null, transactionHash: BytesLike | null, writeArgument: () => number) => {
    const fn = exported(name);
    handler = name;
    store.setBlockTime(blockTimestamp === null ? null : BigInt(blockTimestamp));
    store.beginHandler();
    try {
      fn(writeArgument());
      store.commitHandler();
    } catch (error) {
      // graph-node reverts the writes of a failed handler.
      store.rollbackHandler();
      const failure = toHostError(error, name);
      // graph-node adds the trigger's transaction as context to deterministic handler errors.
      if (failure.deterministic && transactionHash !== null) {
        const hex = typeof transactionHash === "string" ? transactionHash.replace(/^0x/i, "").toLowerCase() : Buffer.from(transactionHash).toString("hex");
        failure.message = `transaction ${hex}: ${failure.message}`;
        failure.details["transaction"] = `0x${hex}`;
      }
      throw failure;
    } finally {
      handler = null;
    }
    recycleIfLarge();
  };

  return {
    context,
    reusesMemory: ownMemory !== null,
    restartIfGrown,
    beginBlock(block) {
      store.beginBlock(block);
    },
    setDataSource(next) {
      dataSource = next;
    },
    runEventHandler(name, event) {
      runTrigger(name, event.block.timestamp, event.transaction.hash, () => writer.writeEvent(event));
    },
    runBlockHandler(name, block) {
      runTrigger(name, block.timestamp, null, () => writer.writeBlock(block));
    },
    runCallHandler(name, call) {
      runTrigger(name, call.block.timestamp, call.transaction.hash, () => writer.writeCall(call));
    },
    runFileHandler(name, content) {
      // graph-node gives offchain triggers no block time.
      runTrigger(name, null, null, () => codec.writeBytes(content));
    },
    runEntityHandler(name, entity, blockTimestamp) {
      runTrigger(name, blockTimestamp, null, () => codec.writeEntity(withoutNulls(entity)));
    },
    takeChanges() {
      return store.takeChanges();
    },
    callExport(name, ...args) {
      const fn = exported(name);
      const previous = handler;
      handler = name;
      try {
        return fn(...args);
      } catch (error) {
        throw toHostError(error, name);
      } finally {
        handler = previous;
      }
    },
  };
}

/** graph-node reads a source's entity from its table and leaves out the columns that are null. */
function withoutNulls(entity: EntityData): EntityData {
  const out: EntityData = new Map();
  for (const [key, value] of entity) if (value.kind !== "Null" && key !== "vid") out.set(key, value);
  return out;
}
