// Every error path: the node's 404/400/410/500 bodies, network failures, bad bodies, and masking of the key.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMoveClient, type MoveClient } from "./client.js";
import {
  InvalidAddressError,
  InvalidArgumentError,
  InvalidHashError,
  MoveApiError,
  MoveNetworkError,
  MoveResponseError,
  MoveTimeoutError,
} from "./errors.js";
import { getAccountResource } from "./getAccountResource.js";
import { getEventsByCreationNumber } from "./getEventsByCreationNumber.js";
import { getEventsByEventHandle } from "./getEventsByEventHandle.js";
import { getMessageHolder } from "./getMessageHolder.js";
import { getTransactionByHash } from "./getTransactionByHash.js";
import { createFixtureNode, type FixtureNode } from "./_test/fixtureNode.js";
import { freePort } from "subgraph-workbench/lib/freePort";

const SECRET = "k3yS3cr3tAbCdEf0123456789";
const ALICE = "0xa11ce";
const MODULE = "0xcafe";
const HOLDER = `${MODULE}::message::MessageHolder`;

let node: FixtureNode;
let client: MoveClient;

beforeEach(async () => {
  node = await createFixtureNode({ moduleAddress: MODULE, basePath: `/${SECRET}` });
  client = createMoveClient({ nodeUrl: node.url });
});
afterEach(async () => {
  await node.close();
});

async function caught(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error("expected a rejection");
  return error;
}

function expectNoSecret(error: Error): void {
  expect(error.message).not.toContain(SECRET);
  expect(JSON.stringify({ ...error })).not.toContain(SECRET);
}

describe("node error bodies", () => {
  it("404 resource_not_found on a resource read surfaces the body; on the holder it is the no-message answer", async () => {
    node.chain.createAccount(ALICE);
    const error = await caught(getAccountResource(client, { address: ALICE, resourceType: HOLDER }));
    expect(error).toBeInstanceOf(MoveApiError);
    expect(error).toMatchObject({ status: 404, errorCode: "resource_not_found", vmErrorCode: null });
    expect((error as MoveApiError).body?.message).toMatch(/^Resource not found by Address\(0x0+a11ce\), Struct tag\(0x0+cafe::message::MessageHolder\)/);
    expect(error.message).toContain(`/***/v1/accounts/0x${"0".repeat(59)}a11ce/resource/`);
    expectNoSecret(error);

    const holder = await getMessageHolder(client, { address: ALICE, moduleAddress: MODULE });
    expect(holder).toMatchObject({ status: "no_message", reason: { error_code: "resource_not_found" } });
  });

  it("404 account_not_found: raised by the creation-number events route, and read as no message by the holder", async () => {
    const error = await caught(getEventsByCreationNumber(client, { address: "0xdead", creationNumber: 2n }));
    expect(error).toMatchObject({ status: 404, errorCode: "account_not_found" });
    expect((error as MoveApiError).body?.message).toContain("Account not found by Address(");

    // Older nodes check the account before the resource.
    node.injectFault({ kind: "status", status: 404, body: { message: "Account not found by Address(0xdead)", error_code: "account_not_found", vm_error_code: null } });
    expect(await getMessageHolder(client, { address: "0xdead", moduleAddress: MODULE })).toMatchObject({
      status: "no_message",
      reason: { error_code: "account_not_found" },
    });
  });

  it("404 transaction_not_found", async () => {
    const error = await caught(getTransactionByHash(client, { hash: `0x${"12".repeat(32)}` }));
    expect(error).toMatchObject({ status: 404, errorCode: "transaction_not_found" });
    expectNoSecret(error);
  });

  it("404 struct_field_not_found for a field the resource lacks", async () => {
    node.chain.submitSetMessage(ALICE, "hi");
    const error = await caught(getEventsByEventHandle(client, { address: ALICE, eventHandle: HOLDER, fieldName: "nope_events" }));
    expect(error).toMatchObject({ status: 404, errorCode: "struct_field_not_found" });
  });

  it("400 invalid_input: a page larger than the node allows, a field that is not an event handle", async () => {
    node.chain.submitSetMessage(ALICE, "hi");
    const tooLarge = await caught(getEventsByEventHandle(client, { address: ALICE, eventHandle: HOLDER, fieldName: "message_change_events", limit: 101 }));
    expect(tooLarge).toMatchObject({ status: 400, errorCode: "invalid_input", body: { message: "Given limit value (101) is too large, it must be < 100" } });

    const notHandle = await caught(getEventsByEventHandle(client, { address: ALICE, eventHandle: HOLDER, fieldName: "message" }));
    expect(notHandle).toMatchObject({ status: 400, errorCode: "invalid_input" });
  });

  it("400 web_framework_error when a path value does not parse (sent past the client's own checks)", async () => {
    const error = await caught(client.get(["accounts", "0xnot-hex", "resource", HOLDER]));
    expect(error).toMatchObject({ status: 400, errorCode: "web_framework_error" });
  });

  it("404 version_not_found and 410 version_pruned for ledger versions", async () => {
    node.chain.submitSetMessage(ALICE, "a");
    node.chain.submitSetMessage(ALICE, "b");
    const future = await caught(getAccountResource(client, { address: ALICE, resourceType: HOLDER, ledgerVersion: 5000n }));
    expect(future).toMatchObject({ status: 404, errorCode: "version_not_found" });
    const old = await caught(getAccountResource(client, { address: ALICE, resourceType: HOLDER, ledgerVersion: 1000n }));
    expect(old).toMatchObject({ status: 410, errorCode: "version_pruned" });
  });

  it("500 internal_error keeps the body, including a vm_error_code", async () => {
    node.injectFault({ kind: "status", status: 500, body: { message: "Failed to read state", error_code: "internal_error", vm_error_code: 4016 } });
    const error = await caught(getMessageHolder(client, { address: ALICE, moduleAddress: MODULE }));
    expect(error).toBeInstanceOf(MoveApiError);
    expect(error).toMatchObject({ status: 500, errorCode: "internal_error", vmErrorCode: 4016, body: { message: "Failed to read state" } });
    expect(error.message).toContain("HTTP 500 internal_error: Failed to read state");
  });

  it("a non-JSON error body (a gateway page) is kept raw", async () => {
    node.injectFault({ kind: "status", status: 502, body: "<html>Bad Gateway</html>" });
    const error = await caught(getTransactionByHash(client, { hash: `0x${"12".repeat(32)}` }));
    expect(error).toMatchObject({ status: 502, errorCode: undefined, body: undefined, rawBody: "<html>Bad Gateway</html>" });
  });
});

describe("network failures", () => {
  it("connection refused names the cause, with the key masked", async () => {
    const port = await freePort();
    const offline = createMoveClient({ nodeUrl: `http://127.0.0.1:${port}/${SECRET}` });
    const error = await caught(getTransactionByHash(offline, { hash: `0x${"12".repeat(32)}` }));
    expect(error).toBeInstanceOf(MoveNetworkError);
    expect(error.message).toContain("connection refused");
    expect(error.message).toContain(`http://127.0.0.1:${port}/***/v1/transactions/by_hash/`);
    expectNoSecret(error);
  });

  it("a dropped connection is a network error", async () => {
    node.injectFault({ kind: "drop" });
    const error = await caught(getMessageHolder(client, { address: ALICE, moduleAddress: MODULE }));
    expect(error).toBeInstanceOf(MoveNetworkError);
    expect(error).not.toBeInstanceOf(MoveTimeoutError);
    expectNoSecret(error);
  });

  it("a node that never answers ends in a timeout error", async () => {
    node.injectFault({ kind: "hang" });
    const impatient = createMoveClient({ nodeUrl: node.url, timeoutMs: 150 });
    const error = await caught(getMessageHolder(impatient, { address: ALICE, moduleAddress: MODULE }));
    expect(error).toBeInstanceOf(MoveTimeoutError);
    expect(error).toMatchObject({ code: "MOVE_TIMEOUT", timeoutMs: 150 });
  });

  it("a 200 whose body is not JSON, or breaks the shape, is a response error", async () => {
    node.injectFault({ kind: "not_json" });
    expect(await caught(getTransactionByHash(client, { hash: `0x${"12".repeat(32)}` }))).toBeInstanceOf(MoveResponseError);

    node.injectFault({ kind: "status", status: 200, body: { type: "user_transaction", hash: `0x${"12".repeat(32)}` } });
    const error = await caught(getTransactionByHash(client, { hash: `0x${"12".repeat(32)}` }));
    expect(error).toBeInstanceOf(MoveResponseError);
    expect(error.message).toContain("field sender");

    node.injectFault({ kind: "status", status: 200, body: [{ guid: { creation_number: 2, account_address: "0x1" }, sequence_number: "0", type: "t", data: {}, version: "1" }] });
    const numeric = await caught(getEventsByCreationNumber(client, { address: ALICE, creationNumber: 2n }));
    expect(numeric.message).toContain("field creation_number is 2");
  });
});

describe("checks before any request", () => {
  it("rejects bad addresses, hashes, page sizes and node URLs without calling the node", async () => {
    await expect(getMessageHolder(client, { address: "0xzz" })).rejects.toBeInstanceOf(InvalidAddressError);
    await expect(getMessageHolder(client, { address: ALICE, moduleAddress: "alice" })).rejects.toBeInstanceOf(InvalidAddressError);
    await expect(getTransactionByHash(client, { hash: "0x1234" })).rejects.toBeInstanceOf(InvalidHashError);
    await expect(getEventsByCreationNumber(client, { address: ALICE, creationNumber: 2n, limit: 0 })).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(node.requests).toEqual([]);
    expect(() => createMoveClient({ nodeUrl: "ftp://host" })).toThrow(InvalidArgumentError);
    expect(() => createMoveClient({ nodeUrl: `not a url ${SECRET}` })).toThrow(/not a valid URL/);
    try {
      createMoveClient({ nodeUrl: `not a url ${SECRET}` });
    } catch (error) {
      expectNoSecret(error as Error);
    }
  });

  it("accepts a node URL given with /v1 and keeps a query key on every request", async () => {
    node.chain.submitSetMessage(ALICE, "hi");
    const withV1 = createMoveClient({ nodeUrl: `${node.url}/v1/?apikey=${SECRET}` });
    expect(withV1.displayUrl).toBe(`${node.url.replace(SECRET, "***")}?apikey=***`);
    expect((await getMessageHolder(withV1, { address: ALICE, moduleAddress: MODULE })).status).toBe("set");
    expect(node.requests.at(-1)).toMatch(new RegExp(`^/${SECRET}/v1/accounts/0x0+a11ce/resource/0x0+cafe::message::MessageHolder\\?apikey=${SECRET}$`));
  });
});
