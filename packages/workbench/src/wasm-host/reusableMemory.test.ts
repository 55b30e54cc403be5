// A mapping whose memory the host provides: the module rewritten to import it, and restarts that
// reuse it, zeroed, with the same results as fresh memories.
import { beforeAll, describe, expect, it } from "vitest";
import { compileFixture } from "./_test/compileFixture.js";
import { fixtureSchema } from "./_test/harness.js";
import { approvalEvent, syntheticBlock, syntheticTransaction } from "./_test/approvalEvents.js";
import { instantiateSubgraph } from "./instance.js";
import { compileWithReusableMemory, withImportedMemory } from "./reusableMemory.js";
import { createMemoryEntityStore } from "./store/memoryEntityStore.js";
import type { EntityChange, SubgraphInstance } from "./types.js";

const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const memoryExport = [0x07, 0x0a, 0x01, 0x06, ...Buffer.from("memory"), 0x02, 0x00];
/** One active data segment at address 16: the bytes 1, 2, 3. */
const dataSegment = [0x0b, 0x09, 0x01, 0x00, 0x41, 0x10, 0x0b, 0x03, 0x01, 0x02, 0x03];
// A function type () -> () and an import of it as env.f.
const typeSection = [0x01, 0x04, 0x01, 0x60, 0x00, 0x00];
const functionImport = [0x02, 0x09, 0x01, 0x03, ...Buffer.from("env"), 0x01, ...Buffer.from("f"), 0x00, 0x00];

function module(...sections: number[][]): Uint8Array {
  return new Uint8Array([...header, ...sections.flat()]);
}

describe("withImportedMemory", () => {
  it("turns the defined memory into an import of env.memory that keeps its limits, its export and its data", () => {
    const rewired = withImportedMemory(module([0x05, 0x04, 0x01, 0x01, 0x01, 0x03], memoryExport, dataSegment))!;
    expect(rewired.memory).toEqual({ initial: 1, maximum: 3 });
    const compiled = new WebAssembly.Module(rewired.bytes as Uint8Array<ArrayBuffer>);
    expect(WebAssembly.Module.imports(compiled)).toEqual([{ module: "env", name: "memory", kind: "memory" }]);
    const memory = new WebAssembly.Memory(rewired.memory);
    const instance = new WebAssembly.Instance(compiled, { env: { memory } });
    expect(instance.exports["memory"]).toBe(memory);
    expect([...new Uint8Array(memory.buffer, 16, 3)]).toEqual([1, 2, 3]);
    expect(() => memory.grow(3)).toThrow(RangeError);
  });

  it("adds the memory after the imports a module already has", () => {
    const rewired = withImportedMemory(module(typeSection, functionImport, [0x05, 0x03, 0x01, 0x00, 0x02], memoryExport))!;
    expect(rewired.memory).toEqual({ initial: 2 });
    const compiled = new WebAssembly.Module(rewired.bytes as Uint8Array<ArrayBuffer>);
    expect(WebAssembly.Module.imports(compiled)).toEqual([
      { module: "env", name: "f", kind: "function" },
      { module: "env", name: "memory", kind: "memory" },
    ]);
  });

  it("leaves a module without a memory, or with a shared one, to be compiled as it is", () => {
    expect(withImportedMemory(module(typeSection))).toBeNull();
    expect(withImportedMemory(module([0x05, 0x04, 0x01, 0x03, 0x01, 0x02]))).toBeNull();
  });
});

describe("restarts on a reused memory", () => {
  let bytes: Uint8Array;
  beforeAll(async () => {
    bytes = await compileFixture("mapping.as.ts");
  }, 180_000);

  async function start(module: WebAssembly.Module): Promise<SubgraphInstance> {
    return instantiateSubgraph(module, {
      apiVersion: "0.0.7",
      schema: fixtureSchema,
      store: createMemoryEntityStore(),
      dataSource: { name: "Fixture", address: "0x00000000000000000000000000000000000000aa", network: "localhost", context: null },
      log: () => undefined,
      recycleMemoryBytes: Infinity,
    });
  }

  function runBlock(instance: SubgraphInstance, number: number, events: number): EntityChange[] {
    const block = syntheticBlock(number);
    instance.beginBlock({ number, hash: block.hash as string });
    for (let i = 0; i < events; i++) {
      instance.runEventHandler("handleApproval", approvalEvent(block, syntheticTransaction(number, i), i, "0x" + "11".repeat(20), "0x" + "22".repeat(20), BigInt(number * 1000 + i)));
    }
    return instance.takeChanges();
  }

  it("keeps the one memory, starts it as a fresh instance would, and writes what fresh memories write", async () => {
    const reused = await start(compileWithReusableMemory(bytes));
    const fresh = await start(await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>));
    expect(reused.reusesMemory).toBe(true);
    expect(fresh.reusesMemory).toBe(false);
    const memory = reused.context.exports["memory"] as WebAssembly.Memory;
    const limit = 1024 * 1024;
    let restarts = 0;
    for (let block = 1; block <= 12; block++) {
      expect(runBlock(reused, block, 400)).toEqual(runBlock(fresh, block, 400));
      if (reused.restartIfGrown(limit)) {
        restarts++;
        // As a new instance's memory: what `_start` left, then zeros.
        const started = await start(await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>));
        const image = new Uint8Array((started.context.exports["memory"] as WebAssembly.Memory).buffer);
        const now = new Uint8Array(memory.buffer);
        expect(Buffer.from(now.subarray(0, image.length)).equals(Buffer.from(image))).toBe(true);
        expect(now.subarray(image.length).every((b) => b === 0)).toBe(true);
      }
      fresh.restartIfGrown(limit);
    }
    expect(restarts).toBeGreaterThan(1);
    expect(reused.context.exports["memory"]).toBe(memory);
    // Restarted, the mapping's heap is small again though the memory keeps its size.
    expect(reused.restartIfGrown(limit)).toBe(false);
    expect(memory.buffer.byteLength).toBeGreaterThan(limit);
  });
});
