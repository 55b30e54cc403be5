// Paging of the MessageChangeEvent history through the event handle, against the fixture node.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { normalizeAddress } from "./address.js";
import { createMoveClient, type MoveClient } from "./client.js";
import { MoveApiError, MoveResponseError } from "./errors.js";
import { getEventsByCreationNumber } from "./getEventsByCreationNumber.js";
import { getEventsByEventHandle } from "./getEventsByEventHandle.js";
import { getMessageHistory, iterateMessageHistory } from "./getMessageHistory.js";
import { getMessageHolder } from "./getMessageHolder.js";
import { createFixtureNode, type FixtureNode } from "./_test/fixtureNode.js";

const ALICE = "0xa11ce";
const MODULE = "0xcafe";
const HOLDER = `${normalizeAddress(MODULE)}::message::MessageHolder`;

let node: FixtureNode;
let client: MoveClient;

beforeEach(async () => {
  node = await createFixtureNode({ moduleAddress: MODULE });
  client = createMoveClient({ nodeUrl: node.url });
});
afterEach(async () => {
  await node.close();
});

/** Sets m0..m<count-1>: count-1 change events. */
function setMessages(count: number, sender = ALICE): void {
  for (let i = 0; i < count; i++) node.chain.submitSetMessage(sender, `m${i}`);
}

function historyRequests(): string[] {
  return node.requests.filter((path) => path.includes("/events/"));
}

describe("getMessageHistory", () => {
  it("reads every change in order across pages and stops at the first short page", async () => {
    setMessages(8); // 7 changes
    const history = await getMessageHistory(client, { address: ALICE, moduleAddress: MODULE, pageSize: 3 });
    if (history.status !== "set") throw new Error("expected a history");
    expect(history.changes.map((c) => [c.sequenceNumber, c.fromMessage, c.toMessage])).toEqual([
      [0n, "m0", "m1"],
      [1n, "m1", "m2"],
      [2n, "m2", "m3"],
      [3n, "m3", "m4"],
      [4n, "m4", "m5"],
      [5n, "m5", "m6"],
      [6n, "m6", "m7"],
    ]);
    expect(history.pages).toBe(3);
    expect(historyRequests().map((path) => new URL(path, "http://x").search)).toEqual([
      "?start=0&limit=3",
      "?start=3&limit=3",
      "?start=6&limit=3",
    ]);
    // Versions grow with the sets that emitted them (the first set, version 1000, emitted none).
    expect(history.changes.map((c) => c.version)).toEqual([1001n, 1002n, 1003n, 1004n, 1005n, 1006n, 1007n]);
  });

  it("asks once more after an exactly full last page and gets an empty one", async () => {
    setMessages(7); // 6 changes
    const history = await getMessageHistory(client, { address: ALICE, moduleAddress: MODULE, pageSize: 3 });
    expect(history.status === "set" && history.changes.length).toBe(6);
    expect(historyRequests()).toHaveLength(3);
  });

  it("starts at a sequence number and stops after maxEvents", async () => {
    setMessages(11); // 10 changes
    const history = await getMessageHistory(client, { address: ALICE, moduleAddress: MODULE, start: 4n, pageSize: 4, maxEvents: 5 });
    if (history.status !== "set") throw new Error("expected a history");
    expect(history.changes.map((c) => c.sequenceNumber)).toEqual([4n, 5n, 6n, 7n, 8n]);
    expect(historyRequests().map((path) => new URL(path, "http://x").search)).toEqual(["?start=4&limit=4", "?start=8&limit=1"]);
  });

  it("is empty, not missing, for a holder that was set once", async () => {
    setMessages(1);
    expect(await getMessageHistory(client, { address: ALICE, moduleAddress: MODULE })).toMatchObject({ status: "set", changes: [], pages: 0 });
  });

  it("is the no-message answer when there is no holder", async () => {
    node.chain.createAccount(ALICE);
    expect(await getMessageHistory(client, { address: ALICE, moduleAddress: MODULE })).toMatchObject({
      status: "no_message",
      reason: { error_code: "resource_not_found" },
    });
  });

  it("yields page by page from the iterator", async () => {
    setMessages(6);
    const pages = [];
    for await (const page of iterateMessageHistory(client, { address: ALICE, moduleAddress: MODULE, pageSize: 2 })) pages.push(page);
    expect(pages.map((page) => [page.events.length, page.nextStart])).toEqual([
      [2, 2n],
      [2, 4n],
      [1, 5n],
    ]);
  });

  it("refuses a page whose sequence numbers skip, instead of losing or repeating events", async () => {
    setMessages(3);
    node.injectFault({
      kind: "status",
      status: 200,
      body: [
        { version: "1", guid: { creation_number: "2", account_address: ALICE }, sequence_number: "0", type: "t", data: { from_message: "a", to_message: "b" } },
        { version: "2", guid: { creation_number: "2", account_address: ALICE }, sequence_number: "5", type: "t", data: { from_message: "b", to_message: "c" } },
      ],
    });
    await expect(getMessageHistory(client, { address: ALICE, moduleAddress: MODULE, pageSize: 2 })).rejects.toThrow(MoveResponseError);
  });

  it("passes other node errors through", async () => {
    setMessages(3);
    node.injectFault({ kind: "status", status: 500, body: { message: "db down", error_code: "internal_error", vm_error_code: null } });
    await expect(getMessageHistory(client, { address: ALICE, moduleAddress: MODULE })).rejects.toBeInstanceOf(MoveApiError);
  });
});

describe("event endpoints", () => {
  it("by handle and by the handle's creation number give the same stream", async () => {
    setMessages(4);
    const holder = await getMessageHolder(client, { address: ALICE, moduleAddress: MODULE });
    if (holder.status !== "set") throw new Error("expected a holder");
    expect(holder.events.counter).toBe(3n);

    const byHandle = await getEventsByEventHandle(client, { address: ALICE, eventHandle: HOLDER, fieldName: "message_change_events", start: 0n });
    const byNumber = await getEventsByCreationNumber(client, { address: ALICE, creationNumber: holder.events.guid.creationNumber, start: 0n });
    expect(byNumber.events).toEqual(byHandle.events);
    expect(byHandle.events).toHaveLength(3);
    expect(byHandle.events[0]).toMatchObject({
      sequenceNumber: 0n,
      guid: { creationNumber: holder.events.guid.creationNumber, accountAddress: normalizeAddress(ALICE) },
      type: `${normalizeAddress(MODULE)}::message::MessageChangeEvent`,
      data: { from_message: "m0", to_message: "m1" },
    });
  });

  it("without start returns the most recent events, oldest first", async () => {
    setMessages(6); // 5 changes
    const { events } = await getEventsByEventHandle(client, { address: ALICE, eventHandle: HOLDER, fieldName: "message_change_events", limit: 2 });
    expect(events.map((event) => event.sequenceNumber)).toEqual([3n, 4n]);
  });

  it("past the end is an empty page", async () => {
    setMessages(3);
    const { events } = await getEventsByEventHandle(client, { address: ALICE, eventHandle: HOLDER, fieldName: "message_change_events", start: 50n });
    expect(events).toEqual([]);
  });
});
