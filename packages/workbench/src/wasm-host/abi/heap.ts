// Module memory access and object allocation with graph-node's AssemblyScript (>= 0.19) layout:
// a 20-byte header (mmInfo, gcInfo, gcInfo2, rtId, rtSize) before 16-byte aligned content.
import { HostLinkError } from "../errors.js";

/** The exports the host needs from a mapping module. */
export interface MappingExports {
  memory: WebAssembly.Memory;
  allocate(size: number): number;
  id_of_type(typeId: number): number;
}

export interface AscHeap {
  /** Current views; call `views()` again after anything that may grow memory. */
  views(): { u8: Uint8Array; u16: Uint16Array; u32: Uint32Array; dv: DataView };
  /**
   * Allocates `size` content bytes with a header for graph-ts `typeId`; returns the content pointer.
   * The content is zeroed unless `zero` is false (for contents the caller overwrites entirely).
   */
  alloc(typeId: number, size: number, zero?: boolean): number;
  classId(typeId: number): number;
  /** Forgets the current arena (e.g. after the module was re-instantiated). */
  reset(exports: MappingExports): void;
}

// graph-node asks the module's allocator for arenas and bump-allocates inside them; a larger arena
// than graph-node's 10 kB means fewer calls into the module per event.
const ARENA_SIZE = 64 * 1024;
const HEADER = 20;

export function checkMappingExports(exports: WebAssembly.Exports): MappingExports {
  const missing = ["memory", "allocate", "id_of_type"].filter((name) => !(name in exports));
  if (missing.length > 0) {
    throw new HostLinkError(`mapping module does not export ${missing.join(", ")}`, { missing });
  }
  if (!(exports["memory"] instanceof WebAssembly.Memory)) throw new HostLinkError("mapping export `memory` is not a memory");
  return exports as unknown as MappingExports;
}

export function createAscHeap(initial: MappingExports): AscHeap {
  let exports = initial;
  // One views object, updated in place: codec calls views() on every access, so it must not allocate.
  const v = { u8: new Uint8Array(0), u16: new Uint16Array(0), u32: new Uint32Array(0), dv: new DataView(new ArrayBuffer(0)) };
  let arenaPtr = 0;
  let arenaEnd = 0;
  // Class ids by graph-ts TypeId: the common ids (< 64) in an array, the chain-specific ones in a map.
  const smallIds = new Int32Array(64).fill(-1);
  const classIds = new Map<number, number>();

  const views = () => {
    // Growing a wasm memory detaches its old buffer, so an empty view means "refresh"; this avoids
    // reading `memory.buffer` (a slow accessor) on every access.
    if (v.u8.byteLength === 0) {
      const buffer = exports.memory.buffer as ArrayBuffer;
      v.u8 = new Uint8Array(buffer);
      v.u16 = new Uint16Array(buffer, 0, buffer.byteLength >>> 1);
      v.u32 = new Uint32Array(buffer, 0, buffer.byteLength >>> 2);
      v.dv = new DataView(buffer);
    }
    return v;
  };

  const classId = (typeId: number): number => {
    if (typeId < 64) {
      const cached = smallIds[typeId]!;
      if (cached >= 0) return cached;
      const id = exports.id_of_type(typeId) >>> 0;
      smallIds[typeId] = id;
      return id;
    }
    let id = classIds.get(typeId);
    if (id === undefined) {
      id = exports.id_of_type(typeId) >>> 0;
      classIds.set(typeId, id);
    }
    return id;
  };

  return {
    views,
    classId,
    alloc(typeId, size, zero = true) {
      const rtId = classId(typeId);
      const padded = (size + 15) & ~15;
      let content = ((arenaPtr + HEADER + 15) & ~15) >>> 0;
      if (arenaPtr === 0 || content + padded > arenaEnd) {
        const request = Math.max(padded + HEADER + 16, ARENA_SIZE);
        arenaPtr = exports.allocate(request) >>> 0;
        arenaEnd = arenaPtr + request;
        content = ((arenaPtr + HEADER + 15) & ~15) >>> 0;
      }
      arenaPtr = content + padded;
      views();
      const h = (content - HEADER) >>> 2;
      // Content is 16-aligned, so the header words are 4-aligned.
      v.u32[h] = 16 + padded;
      v.u32[h + 1] = 0;
      v.u32[h + 2] = 0;
      v.u32[h + 3] = rtId;
      v.u32[h + 4] = size;
      if (zero) {
        // Small objects: a word loop beats TypedArray.fill's call overhead.
        const u32 = v.u32;
        for (let w = content >>> 2, end = (content + padded) >>> 2; w < end; w++) u32[w] = 0;
      }
      return content;
    },
    reset(next) {
      exports = next;
      v.u8 = new Uint8Array(0);
      arenaPtr = 0;
      arenaEnd = 0;
      classIds.clear();
      smallIds.fill(-1);
    },
  };
}
