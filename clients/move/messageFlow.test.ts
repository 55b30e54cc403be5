// The module's state table as seen through the REST client, against the fixture node on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { normalizeAddress } from "./address.js";
import { createMoveClient, type MoveClient } from "./client.js";
import { MoveApiError } from "./errors.js";
import { getAccountResource } from "./getAccountResource.js";
import { getMessage, getMessageHolder } from "./getMessageHolder.js";
import { getTransactionByHash } from "./getTransactionByHash.js";
import { messageChangesOf } from "./messageModule.js";
import { createFixtureNode, type FixtureNode } from "./_test/fixtureNode.js";

const ALICE = "0xa11ce";
const MODULE = "0xcafe";

let node: FixtureNode;
let client: MoveClient;

beforeEach(async () => {
  node = await createFixtureNode({ moduleAddress: MODULE });
  client = createMoveClient({ nodeUrl: node.url });
});
afterEach(async () => {
  await node.close();
});

describe("set_message state table", () => {
  it("a set on an empty address creates the holder with no event", async () => {
    expect((await getMessageHolder(client, { address: ALICE, moduleAddress: MODULE })).status).toBe("no_message");

    const hash = node.chain.submitSetMessage(ALICE, "hello");
    const holder = await getMessageHolder(client, { address: ALICE, moduleAddress: MODULE });

    expect(holder.status).toBe("set");
    if (holder.status !== "set") return;
    expect(holder.message).toBe("hello");
    expect(holder.events.counter).toBe(0n);
    expect(holder.events.guid.accountAddress).toBe(normalizeAddress(ALICE));
    expect(holder.resource.type).toBe(`${normalizeAddress(MODULE)}::message::MessageHolder`);

    const txn = await getTransactionByHash(client, { hash });
    expect(txn.kind).toBe("user");
    if (txn.kind !== "user") return;
    expect(messageChangesOf(txn.events)).toEqual([]);
    // Only the framework's fee statement: the first set emits nothing of its own.
    expect(txn.events.map((event) => event.type)).toEqual(["0x1::transaction_fee::FeeStatement"]);
  });

  it("the next set emits one event with the old and new message and updates the message", async () => {
    node.chain.submitSetMessage(ALICE, "hello");
    const hash = node.chain.submitSetMessage(ALICE, "world");

    const holder = await getMessageHolder(client, { address: ALICE, moduleAddress: MODULE });
    expect(holder.status === "set" && holder.message).toBe("world");
    expect(holder.status === "set" && holder.events.counter).toBe(1n);

    const txn = await getTransactionByHash(client, { hash });
    if (txn.kind !== "user") throw new Error(`expected a user transaction, got ${txn.kind}`);
    const changes = txn.events.filter((event) => event.type.endsWith("::message::MessageChangeEvent"));
    expect(changes).toHaveLength(1);
    expect(changes[0]!.sequenceNumber).toBe(0n);
    expect(changes[0]!.guid).toEqual(holder.status === "set" ? holder.events.guid : undefined);
    expect(messageChangesOf(txn.events, normalizeAddress(MODULE))).toEqual([{ fromMessage: "hello", toMessage: "world" }]);
    // A module published elsewhere does not claim these events.
    expect(messageChangesOf(txn.events, normalizeAddress("0xbeef"))).toEqual([]);
  });

  it("getMessage returns the string, or the typed no-message answer with the node's 404 body", async () => {
    expect(await getMessage(client, { address: ALICE, moduleAddress: MODULE })).toMatchObject({
      status: "no_message",
      reason: { error_code: "resource_not_found", vm_error_code: null },
    });
    node.chain.submitSetMessage(ALICE, "gm");
    expect(await getMessage(client, { address: ALICE, moduleAddress: MODULE })).toEqual({ status: "set", message: "gm" });
  });

  it("defaults the module address to the account (publish and set from one profile)", async () => {
    node = await replaceNode({ moduleAddress: ALICE });
    node.chain.submitSetMessage(ALICE, "self-published");
    expect(await getMessage(client, { address: "0xA11CE" })).toEqual({ status: "set", message: "self-published" });
  });

  it("keeps accounts apart", async () => {
    node.chain.submitSetMessage(ALICE, "alice's");
    node.chain.submitSetMessage("0xb0b", "bob's");
    node.chain.submitSetMessage("0xb0b", "bob's second");
    expect(await getMessage(client, { address: ALICE, moduleAddress: MODULE })).toEqual({ status: "set", message: "alice's" });
    const bob = await getMessageHolder(client, { address: "0xb0b", moduleAddress: MODULE });
    expect(bob.status === "set" && [bob.message, bob.events.counter]).toEqual(["bob's second", 1n]);
  });
});

describe("transactions by hash", () => {
  it("types a committed user transaction: u64 fields as bigint, success and vm_status, payload", async () => {
    node.chain.submitSetMessage(ALICE, "one");
    const hash = node.chain.submitSetMessage(ALICE, "two");
    const txn = await getTransactionByHash(client, { hash: hash.toUpperCase().replace("0X", "") });
    if (txn.kind !== "user") throw new Error("expected user transaction");
    expect(txn.hash).toBe(hash);
    expect(txn.sender).toBe(normalizeAddress(ALICE));
    expect(txn.sequenceNumber).toBe(1n);
    expect(txn.version).toBe(1001n);
    expect(txn.success).toBe(true);
    expect(txn.vmStatus).toBe("Executed successfully");
    expect(txn.gasUsed).toBe(7n);
    expect(typeof txn.timestampUs).toBe("bigint");
    expect(txn.payload).toMatchObject({ type: "entry_function_payload", function: `${normalizeAddress(MODULE)}::message::set_message`, arguments: ["two"] });
    // The raw body keeps the node's string u64s.
    expect(txn.raw.version).toBe("1001");
  });

  it("returns a pending transaction without version, success or events, then the committed one", async () => {
    node.chain.submitSetMessage(ALICE, "first");
    const hash = node.chain.submitSetMessage(ALICE, "second", { pending: true });

    const before = await getTransactionByHash(client, { hash });
    expect(before.kind).toBe("pending");
    expect(before).not.toHaveProperty("version");
    expect(before).not.toHaveProperty("success");
    expect(before.raw).not.toHaveProperty("events");
    expect(before.kind === "pending" && before.sequenceNumber).toBe(1n);
    // Not executed yet: the message has not changed.
    expect(await getMessage(client, { address: ALICE, moduleAddress: MODULE })).toEqual({ status: "set", message: "first" });

    node.chain.commit(hash);
    const after = await getTransactionByHash(client, { hash });
    expect(after.kind).toBe("user");
    expect(after.kind === "user" && messageChangesOf(after.events)).toEqual([{ fromMessage: "first", toMessage: "second" }]);
  });

  it("reports a failed transaction with success false and the vm_status, and no state change", async () => {
    node.chain.submitSetMessage(ALICE, "kept");
    const hash = node.chain.submitSetMessage(ALICE, "lost", { failWith: "Out of gas" });
    const txn = await getTransactionByHash(client, { hash });
    expect(txn.kind === "user" && [txn.success, txn.vmStatus]).toEqual([false, "Out of gas"]);
    expect(await getMessage(client, { address: ALICE, moduleAddress: MODULE })).toEqual({ status: "set", message: "kept" });
  });

  it("answers an unknown hash with transaction_not_found", async () => {
    const error = await getTransactionByHash(client, { hash: `0x${"ee".repeat(32)}` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MoveApiError);
    expect(error).toMatchObject({ status: 404, errorCode: "transaction_not_found", vmErrorCode: null });
    expect((error as Error).message).toContain("Transaction not found by Transaction hash");
  });
});

describe("account resources", () => {
  it("reads any resource as {type, data}", async () => {
    node.chain.submitSetMessage(ALICE, "x");
    const { resource, ledger } = await getAccountResource(client, { address: ALICE, resourceType: "0x1::account::Account" });
    expect(resource.type).toBe("0x1::account::Account");
    expect(resource.data.sequence_number).toBe("1");
    expect(ledger.chainId).toBe(4);
    expect(ledger.ledgerVersion).toBe(1000n);
  });
});

async function replaceNode(options: Parameters<typeof createFixtureNode>[0]): Promise<FixtureNode> {
  await node.close();
  const next = await createFixtureNode(options);
  client = createMoveClient({ nodeUrl: next.url });
  return next;
}
