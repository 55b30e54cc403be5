// Our subgraph's ApprovalHandler, built by graph-cli (codegen + build), running on the host.
import { beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { buildSubgraph } from "../lib/subgraphBuild.js";
import { parseSubgraphSchema } from "../subgraph-schema/index.js";
import { instantiateSubgraph } from "./instance.js";
import { createMemoryEntityStore } from "./store/memoryEntityStore.js";
import { HostError } from "./errors.js";
import { approvalEvent, syntheticBlock, syntheticTransaction } from "./_test/approvalEvents.js";
import type { SubgraphInstance } from "./types.js";

const U256_MAX = (1n << 256n) - 1n;
const OWNER = "0x1111111111111111111111111111111111111111";
const SPENDER = "0x2222222222222222222222222222222222222222";
let module: WebAssembly.Module;
let schemaSdl: string;

beforeAll(async () => {
  const built = await buildSubgraph({ address: "0xa16081f360e3847006db660bae1c6d1b2e17ec2a", startBlock: 1 });
  module = await WebAssembly.compile(await readFile(join(built.buildDir, "ApprovalToken/ApprovalToken.wasm")));
  schemaSdl = await readFile(join(built.buildDir, "schema.graphql"), "utf8");
}, 240_000);

async function start(): Promise<{ instance: SubgraphInstance; backend: ReturnType<typeof createMemoryEntityStore> }> {
  const backend = createMemoryEntityStore();
  const instance = await instantiateSubgraph(module, {
    apiVersion: "0.0.7",
    schema: parseSubgraphSchema(schemaSdl),
    store: backend,
    dataSource: { name: "ApprovalToken", address: "0xa16081f360e3847006db660bae1c6d1b2e17ec2a", network: "localhost", context: null },
  });
  return { instance, backend };
}

describe("ApprovalHandler (graph-cli build) on the host", () => {
  it("stores `<tx hash>-<log index>` entities with owner, spender and value (0 and 2^256-1)", async () => {
    const { instance } = await start();
    const block = syntheticBlock(5);
    const tx = syntheticTransaction(5, 0);
    instance.beginBlock({ number: 5, hash: String(block.hash) });
    instance.runEventHandler("ApprovalHandler", approvalEvent(block, tx, 0, OWNER, SPENDER, 0n));
    instance.runEventHandler("ApprovalHandler", approvalEvent(block, tx, 1, SPENDER, OWNER, U256_MAX));
    const changes = instance.takeChanges();
    expect(changes.map((c) => [c.entityType, c.id])).toEqual([
      ["ApprovalQuery", `${tx.hash}-0`],
      ["ApprovalQuery", `${tx.hash}-1`],
    ]);
    const [first, second] = changes.map((c) => (c.op === "set" ? Object.fromEntries(c.data) : {}));
    expect(first).toEqual({
      id: { kind: "String", value: `${tx.hash}-0` },
      owner: { kind: "Bytes", value: Uint8Array.from(Buffer.from(OWNER.slice(2), "hex")) },
      spender: { kind: "Bytes", value: Uint8Array.from(Buffer.from(SPENDER.slice(2), "hex")) },
      value: { kind: "BigInt", value: 0n },
    });
    expect(second!["value"]).toEqual({ kind: "BigInt", value: U256_MAX });
  });

  it("keeps one entity for the same event twice in a block and fails deterministically in a later block", async () => {
    const { instance, backend } = await start();
    const b5 = syntheticBlock(5);
    const tx = syntheticTransaction(5, 0);
    instance.beginBlock({ number: 5, hash: String(b5.hash) });
    instance.runEventHandler("ApprovalHandler", approvalEvent(b5, tx, 2, OWNER, SPENDER, 7n));
    instance.runEventHandler("ApprovalHandler", approvalEvent(b5, tx, 2, OWNER, SPENDER, 7n));
    const changes = instance.takeChanges();
    expect(changes).toHaveLength(1);
    backend.apply(changes, 5);
    const b6 = syntheticBlock(6);
    instance.beginBlock({ number: 6, hash: String(b6.hash) });
    let error: unknown;
    try {
      instance.runEventHandler("ApprovalHandler", approvalEvent(b6, tx, 2, OWNER, SPENDER, 7n));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).deterministic).toBe(true);
    // graph-node's wording, with the transaction as context.
    expect((error as HostError).message).toBe(
      `transaction ${tx.hash.toString().slice(2)}: entity ApprovalQuery[${tx.hash}-2] is immutable; inserting it at block 6 is not possible as it was already inserted at block 5`,
    );
    expect(instance.takeChanges()).toEqual([]);
  });
});
