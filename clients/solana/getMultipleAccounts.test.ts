import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createJsonRpcClient, type JsonRpcClient } from "subgraph-workbench/json-rpc";
import { InvalidParamsRpcError, InvalidRequestRpcError } from "subgraph-workbench/json-rpc";
import { EMPTY, LARGE, MINT, MINT_PARSED, MISSING, PROGRAM, SMALL, fixtureAccounts, keyFor } from "./_test/accounts.js";
import { startSolanaFixtureServer, type FixtureAccount, type SolanaFixtureServer } from "./_test/fixtureServer.js";
import { InvalidPublicKeyError } from "./errors.js";
import { getMultipleAccounts } from "./getMultipleAccounts.js";

const accounts = fixtureAccounts();
// 150 more accounts, so requests past 100 keys mix hits and misses.
for (let i = 0; i < 150; i++) {
  accounts.set(keyFor(`bulk-${i}`), { lamports: BigInt(i), owner: SMALL, data: Uint8Array.of(i & 0xff, i >> 8) } satisfies FixtureAccount);
}
const dataOf = (key: string) => accounts.get(key)!.data;
let server: SolanaFixtureServer;
let client: JsonRpcClient;
let requestsBefore = 0;

beforeAll(async () => {
  server = await startSolanaFixtureServer({ accounts, slot: 777 });
  client = createJsonRpcClient({ url: server.url });
});
beforeEach(() => {
  requestsBefore = server.httpRequests;
});
afterAll(() => server.close());

describe("getMultipleAccounts", () => {
  it("uses the node's default (base64) and keeps request order with nulls for missing accounts", async () => {
    const raw = await client.request<{ value: { data: unknown }[] }>("getMultipleAccounts", [[SMALL]]);
    expect(raw.value[0]?.data).toEqual([expect.any(String), "base64"]);
    const keys = [MISSING, LARGE, SMALL, MISSING, EMPTY];
    const { context, value } = await getMultipleAccounts(client, { addresses: keys });
    expect(context.slot).toBe(777);
    expect(value.map((a) => a?.dataEncoding ?? null)).toEqual([null, "base64", "base64", null, "base64"]);
    expect(value[1]?.data).toEqual(dataOf(LARGE));
    expect(value[2]?.data).toEqual(dataOf(SMALL));
    expect(value[4]?.data).toEqual(new Uint8Array(0));
  });

  it.each(["base58", "base64", "base64+zstd", "jsonParsed"] as const)("decodes %s for every account", async (encoding) => {
    const keys = [SMALL, PROGRAM, MISSING, EMPTY, MINT];
    const { value } = await getMultipleAccounts(client, { addresses: keys, encoding });
    expect(value).toHaveLength(5);
    expect(value[2]).toBeNull();
    for (const i of [0, 1, 3]) expect(value[i]?.data).toEqual(dataOf(keys[i]!));
    if (encoding === "jsonParsed") expect(value[4]?.data).toEqual({ ...MINT_PARSED, space: 82 });
    else expect(value[4]?.data).toEqual(dataOf(MINT));
    expect(value[1]?.executable).toBe(true);
  });

  it("accepts a single key", async () => {
    const { value } = await getMultipleAccounts(client, { addresses: [LARGE], encoding: "base64+zstd" });
    expect(value).toHaveLength(1);
    expect(value[0]?.data).toEqual(dataOf(LARGE));
  });

  it("splits more than 100 keys into concurrent chunks of 100 and merges them in order", async () => {
    const keys: string[] = [];
    for (let i = 0; i < 250; i++) keys.push(i % 7 === 3 ? keyFor(`absent-${i}`) : keyFor(`bulk-${(i * 37) % 150}`));
    const { value } = await getMultipleAccounts(client, { addresses: keys, encoding: "base64" });
    expect(server.httpRequests - requestsBefore).toBe(3);
    expect(value).toHaveLength(250);
    keys.forEach((key, i) => {
      const expected = accounts.get(key);
      if (!expected) expect(value[i]).toBeNull();
      else {
        expect(value[i]?.data).toEqual(expected.data);
        expect(value[i]?.lamports).toBe(expected.lamports);
      }
    });
  });

  it("sends the chunks concurrently", async () => {
    const slow = await startSolanaFixtureServer({ accounts, latencyMs: 50 });
    try {
      const keys = Array.from({ length: 250 }, (_, i) => keyFor(`bulk-${i % 150}`));
      const { value } = await getMultipleAccounts(createJsonRpcClient({ url: slow.url }), { addresses: keys });
      expect(value).toHaveLength(250);
      expect(slow.httpRequests).toBe(3);
      expect(slow.maxConcurrent).toBe(3);
    } finally {
      await slow.close();
    }
  });

  it("asks the node once for an empty list", async () => {
    const result = await getMultipleAccounts(client, { addresses: [] });
    expect(result.value).toEqual([]);
    expect(result.context.slot).toBe(777);
  });

  it("fails the whole request when one account is too large for base58 (-32600)", async () => {
    const error = await getMultipleAccounts(client, { addresses: [SMALL, LARGE], encoding: "base58" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestRpcError);
    expect((error as Error).message).toBe("Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.");
  });

  it("passes the node's -32602 when a request carries more than 100 keys", async () => {
    const keys = Array.from({ length: 101 }, (_, i) => keyFor(`bulk-${i}`));
    const error = await getMultipleAccounts(client, { addresses: keys, chunkSize: 101 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsRpcError);
    expect((error as InvalidParamsRpcError).code).toBe(-32602);
    expect((error as Error).message).toBe("Too many inputs provided; max 100");
  });

  it("refuses a bad key anywhere in the list before sending anything", async () => {
    const keys = [...Array.from({ length: 150 }, (_, i) => keyFor(`bulk-${i}`)), "not-a-key!"];
    await expect(getMultipleAccounts(client, { addresses: keys })).rejects.toBeInstanceOf(InvalidPublicKeyError);
    expect(server.httpRequests).toBe(requestsBefore);
  });

  it("fixture: the node answers a bad key in the list with -32602", async () => {
    await expect(client.request("getMultipleAccounts", [[SMALL, "0OIl"]])).rejects.toThrow("Invalid param: Invalid");
  });
});
