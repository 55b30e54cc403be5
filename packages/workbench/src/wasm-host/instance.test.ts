// Instantiation, linking and event handlers through the mapping fixture.
import { beforeAll, describe, expect, it } from "vitest";
import { createHarness, fixtureModule, fixtureSchema } from "./_test/harness.js";
import { instantiateSubgraph } from "./instance.js";
import { createMemoryEntityStore } from "./store/memoryEntityStore.js";
import { HostError, HostLinkError } from "./errors.js";
import type { EthereumEventInput } from "./types.js";

const U256_MAX = (1n << 256n) - 1n;
const OWNER = "0x1111111111111111111111111111111111111111";
const SPENDER = "0x2222222222222222222222222222222222222222";
const TX = "0x" + "ab".repeat(32);

beforeAll(async () => {
  await fixtureModule("mapping.as.ts");
}, 180_000);

function approval(logIndex: number, value: bigint, tx = TX, blockNumber = 7): EthereumEventInput {
  return {
    address: "0xA16081F360e3847006dB660bae1c6d1b2e17eC2A",
    logIndex,
    transactionLogIndex: logIndex,
    logType: null,
    block: {
      hash: "0x" + blockNumber.toString(16).padStart(64, "0"),
      parentHash: "0x" + "00".repeat(32),
      unclesHash: "0x" + "00".repeat(32),
      author: "0x" + "00".repeat(20),
      stateRoot: "0x" + "00".repeat(32),
      transactionsRoot: "0x" + "00".repeat(32),
      receiptsRoot: "0x" + "00".repeat(32),
      number: blockNumber,
      gasUsed: 21000,
      gasLimit: 30_000_000,
      timestamp: 1_700_000_000,
      difficulty: 0,
      totalDifficulty: 0,
      size: null,
      baseFeePerGas: 1_000_000_000n,
    },
    transaction: {
      hash: tx,
      index: 0,
      from: OWNER,
      to: null,
      value: 0,
      gasLimit: 100000,
      gasPrice: 1,
      input: "0x",
      nonce: 3,
    },
    parameters: [
      { name: "owner", value: { kind: "address", value: OWNER } },
      { name: "spender", value: { kind: "address", value: SPENDER } },
      { name: "value", value: { kind: "uint", value } },
    ],
  };
}

const hex = (b: unknown) => "0x" + Buffer.from(b as Uint8Array).toString("hex");

describe("runEventHandler with an Approval handler", () => {
  it("writes one entity per event with graph-node's id and copied fields (0 and 2^256-1)", async () => {
    const h = await createHarness("mapping.as.ts");
    h.instance.beginBlock({ number: 7, hash: "0x07" });
    h.instance.runEventHandler("handleApproval", approval(0, 0n));
    h.instance.runEventHandler("handleApproval", approval(1, U256_MAX));
    const changes = h.instance.takeChanges();
    expect(changes.map((c) => c.id)).toEqual([`${TX}-0`, `${TX}-1`]);
    const second = changes[1]!.op === "set" ? changes[1]!.data : new Map();
    expect(hex(second.get("owner")?.kind === "Bytes" && second.get("owner")!.value)).toBe(OWNER);
    expect(hex(second.get("spender")?.kind === "Bytes" && second.get("spender")!.value)).toBe(SPENDER);
    expect(second.get("value")).toEqual({ kind: "BigInt", value: U256_MAX });
    expect(changes[0]!.op === "set" && changes[0]!.data.get("value")).toEqual({ kind: "BigInt", value: 0n });
  });

  it("handles the same event twice in a block as one entity, and fails in a later block", async () => {
    const h = await createHarness("mapping.as.ts");
    h.instance.beginBlock({ number: 7, hash: "0x07" });
    h.instance.runEventHandler("handleApproval", approval(3, 5n));
    h.instance.runEventHandler("handleApproval", approval(3, 5n));
    const changes = h.instance.takeChanges();
    expect(changes).toHaveLength(1);
    h.backend.apply(changes, 7);
    h.instance.beginBlock({ number: 8, hash: "0x08" });
    let error: unknown;
    try {
      h.instance.runEventHandler("handleApproval", approval(3, 5n, TX, 8));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).code).toBe("IMMUTABLE");
    expect((error as HostError).deterministic).toBe(true);
    expect((error as HostError).handler).toBe("handleApproval");
  });

  it("rolls back a failed handler's writes and reports the abort", async () => {
    const h = await createHarness("mapping.as.ts");
    h.instance.beginBlock({ number: 7, hash: "0x07" });
    let error: HostError | undefined;
    try {
      h.instance.runEventHandler("handleFailing", approval(1, 1n));
    } catch (e) {
      error = e as HostError;
    }
    expect(error?.code).toBe("ABORT");
    expect(error?.abort?.message).toBe("log index must be negative");
    expect(error?.message).toMatch(new RegExp(`^transaction ${TX.slice(2)}: Mapping aborted at packages/workbench/src/wasm-host/_test/mapping.as.ts, line \\d+, column \\d+, with message: log index must be negative$`));
    expect(error?.handler).toBe("handleFailing");
    expect(h.instance.takeChanges()).toEqual([]);
    expect(h.callString("getItemName", "before-failure")).toBe("<null>");
  });
});

describe("the ethereum.Event layout per apiVersion", () => {
  const inspect = async (apiVersion: string, withReceipt: boolean) => {
    const h = await createHarness("mapping.as.ts", { apiVersion });
    const event = approval(4, 1n);
    event.logType = "mined";
    event.transaction.to = SPENDER;
    event.transaction.input = "0xa9059cbb";
    event.parameters = [
      { name: "who", value: { kind: "string", value: "text-param" } },
      { name: "ok", value: { kind: "bool", value: true } },
    ];
    if (withReceipt) {
      event.receipt = {
        transactionHash: TX,
        transactionIndex: 0,
        blockHash: event.block.hash,
        blockNumber: 7,
        cumulativeGasUsed: 50000,
        gasUsed: 21000,
        contractAddress: "0x" + "00".repeat(20),
        logs: [
          {
            address: OWNER,
            topics: ["0x" + "11".repeat(32)],
            data: "0x",
            blockHash: event.block.hash,
            blockNumber: "0x07",
            transactionHash: TX,
            transactionIndex: 0,
            logIndex: 4,
            transactionLogIndex: 4,
            logType: "mined",
            removed: false,
          },
        ],
        status: 1,
        root: "0x" + "00".repeat(32),
        logsBloom: "0x" + "00".repeat(256),
      };
    }
    h.instance.beginBlock({ number: 7, hash: "0x07" });
    h.instance.runEventHandler("handleInspect", event);
    const [change] = h.instance.takeChanges();
    return change!.op === "set" ? change!.data : new Map();
  };

  it("builds the 0.0.7 event with block, transaction, parameters and receipt", async () => {
    const e = await inspect("0.0.7", true);
    expect(e.get("logIndex")).toEqual({ kind: "BigInt", value: 4n });
    expect(e.get("logType")).toEqual({ kind: "String", value: "mined" });
    expect(e.get("blockNumber")).toEqual({ kind: "BigInt", value: 7n });
    expect(e.get("timestamp")).toEqual({ kind: "BigInt", value: 1_700_000_000n });
    expect(e.get("baseFee")).toEqual({ kind: "BigInt", value: 1_000_000_000n });
    expect(e.get("nonce")).toEqual({ kind: "BigInt", value: 3n });
    expect(hex((e.get("to") as { value: Uint8Array }).value)).toBe(SPENDER);
    expect(hex((e.get("input") as { value: Uint8Array }).value)).toBe("0xa9059cbb");
    expect(hex((e.get("address") as { value: Uint8Array }).value)).toBe("0xa16081f360e3847006db660bae1c6d1b2e17ec2a");
    expect(e.get("receiptLogs")).toEqual({ kind: "Int", value: 1 });
    expect(e.get("paramNames")).toEqual({ kind: "Array", value: [{ kind: "String", value: "who" }, { kind: "String", value: "ok" }] });
    expect(e.get("flag")).toEqual({ kind: "Bool", value: true });
    expect(e.get("text")).toEqual({ kind: "String", value: "text-param" });
  });

  it("has no receipt without one, and no baseFee/nonce objects before 0.0.6", async () => {
    expect((await inspect("0.0.7", false)).get("receiptLogs")).toEqual({ kind: "Int", value: -1 });
    const v6 = await inspect("0.0.6", false);
    expect(v6.get("baseFee")).toEqual({ kind: "BigInt", value: 1_000_000_000n });
  });
});

describe("block and call handlers", () => {
  it("builds ethereum.Block and ethereum.Call", async () => {
    const h = await createHarness("mapping.as.ts");
    const event = approval(0, 1n);
    h.instance.beginBlock({ number: 7, hash: "0x07" });
    h.instance.runBlockHandler("handleBlock", event.block);
    h.instance.runCallHandler("handleCall", {
      to: SPENDER,
      from: OWNER,
      block: event.block,
      transaction: event.transaction,
      inputValues: [{ name: "amount", value: { kind: "uint", value: 12n } }],
      outputValues: [{ name: "ok", value: { kind: "bool", value: true } }],
    });
    const [block, call] = h.instance.takeChanges().map((c) => (c.op === "set" ? Object.fromEntries(c.data) : {}));
    expect(block).toMatchObject({ id: { kind: "String", value: "block-7" }, name: { kind: "String", value: "0x" + "7".padStart(64, "0") }, big: { kind: "BigInt", value: 1_700_000_000n } });
    expect(call).toMatchObject({ name: { kind: "String", value: "amount=12->true" }, big: { kind: "BigInt", value: 7n } });
    expect(hex((call!["raw"] as { value: Uint8Array }).value)).toBe(SPENDER);
  });
});

describe("generated ids and timeseries", () => {
  it("generates ids from the block number and a per-block sequence, and stamps timeseries with the block time", async () => {
    const h = await createHarness("mapping.as.ts");
    const event = approval(0, 1n);
    h.instance.beginBlock({ number: 7, hash: "0x07" });
    // A trigger sets the block time; the handler is irrelevant here.
    h.instance.runBlockHandler("handleBlock", event.block);
    h.call("setTick", 5);
    h.call("setTick", 6);
    h.call("setNoteAuto", "hello");
    expect(() => h.call("setItemAuto")).toThrow("String does not support generating ids");
    const changes = h.instance.takeChanges().filter((c) => c.entityType !== "Item");
    expect(changes.map((c) => c.id)).toEqual([String((7n << 32n) | 0n), String((7n << 32n) | 1n), "0x0000000700000002"]);
    const tick = changes[0]!.op === "set" ? changes[0]!.data : new Map();
    expect(tick.get("timestamp")).toEqual({ kind: "Timestamp", value: 1_700_000_000n * 1_000_000n });
    expect(tick.get("id")).toEqual({ kind: "Int8", value: 7n << 32n });
    h.instance.beginBlock({ number: 8, hash: "0x08" });
    h.call("setNoteAuto", "again");
    expect(h.instance.takeChanges().map((c) => c.id)).toEqual(["0x0000000800000000"]);
  });
});

describe("instantiation and linking", () => {
  // A module importing `index`.`foo.bar` and `env`.`abort` (both `() -> ()`), exporting nothing.
  const moduleWithImports = Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
    0x02, 0x1d, 0x02,
    0x05, ...Buffer.from("index"), 0x07, ...Buffer.from("foo.bar"), 0x00, 0x00,
    0x03, ...Buffer.from("env"), 0x05, ...Buffer.from("abort"), 0x00, 0x00,
  ]);

  it("fails at instantiation naming every unknown import", async () => {
    const options = {
      apiVersion: "0.0.7",
      schema: fixtureSchema,
      store: createMemoryEntityStore(),
      dataSource: { address: "", network: "localhost", context: null },
    };
    const failure = instantiateSubgraph(moduleWithImports, options);
    await expect(failure).rejects.toBeInstanceOf(HostLinkError);
    await expect(failure).rejects.toThrow("unknown import: `index::foo.bar` has not been defined");
    // An extra import of that name links it; the module then lacks graph-ts's exports.
    await expect(instantiateSubgraph(moduleWithImports, { ...options, extraImports: () => ({ "foo.bar": () => undefined }) })).rejects.toThrow(
      /does not export memory, allocate, id_of_type/,
    );
  });

  it("rejects apiVersions below 0.0.5", async () => {
    await expect(createHarness("mapping.as.ts", { apiVersion: "0.0.4" })).rejects.toThrow(/apiVersion 0.0.4 is not supported/);
  });

  it("names a missing handler", async () => {
    const h = await createHarness("mapping.as.ts");
    expect(() => h.instance.runEventHandler("handleNothing", approval(0, 0n))).toThrow("function handleNothing not found");
  });

  it("gives extraImports the live context (codec and store)", async () => {
    const seen: string[] = [];
    const h = await createHarness("mapping.as.ts", {
      extraImports: (ctx) => ({
        // Overrides the built-in by name, as matchstick-as functions do.
        "store.get": (typePtr: number, idPtr: number) => {
          seen.push(`${ctx.codec.readString(typePtr)}:${ctx.codec.readString(idPtr)}:${ctx.handler}`);
          return 0;
        },
      }),
    });
    expect(h.callString("getItemName", "z")).toBe("<null>");
    expect(seen).toEqual(["Item:z:getItemName"]);
  });

  it("recycles the instance when memory grows past the limit, keeping pending writes", async () => {
    const h = await createHarness("mapping.as.ts", { recycleMemoryBytes: 2 * 1024 * 1024 });
    h.instance.beginBlock({ number: 7, hash: "0x07" });
    const firstExports = h.instance.context.exports;
    const n = 3000;
    for (let i = 0; i < n; i++) h.instance.runEventHandler("handleApproval", approval(i, BigInt(i), TX, 7));
    expect(h.instance.context.exports).not.toBe(firstExports);
    const changes = h.instance.takeChanges();
    expect(changes).toHaveLength(n);
    const last = changes.at(-1)!;
    expect(last.op === "set" && last.data.get("value")).toEqual({ kind: "BigInt", value: BigInt(n - 1) });
  });
});

describe("abort messages", () => {
  it("words unknown parts of the location as graph-node does", async () => {
    const { HostAbortError } = await import("./errors.js");
    expect(new HostAbortError({ message: null, file: null, line: 0, column: 0 }, null).message).toBe("Mapping aborted at an unknown location, with no message");
    expect(new HostAbortError({ message: "m", file: "f.ts", line: 0, column: 0 }, null).message).toBe("Mapping aborted at f.ts, with message: m");
    expect(new HostAbortError({ message: "m", file: "f.ts", line: 3, column: 0 }, null).message).toBe("Mapping aborted at f.ts, line 3, with message: m");
  });
});
