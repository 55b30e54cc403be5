import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonRpcClient, type JsonRpcClient } from "subgraph-workbench/json-rpc";
import { InvalidParamsRpcError, InvalidRequestRpcError } from "subgraph-workbench/json-rpc";
import { EMPTY, EXACTLY_128, LARGE, MINT, MINT_PARSED, MISSING, PROGRAM, SMALL, SYSTEM_PROGRAM, fixtureAccounts } from "./_test/accounts.js";
import { startSolanaFixtureServer, type SolanaFixtureServer } from "./_test/fixtureServer.js";
import { InvalidPublicKeyError } from "./errors.js";
import { getAccountInfo } from "./getAccountInfo.js";

const accounts = fixtureAccounts();
const dataOf = (key: string) => accounts.get(key)!.data;
let server: SolanaFixtureServer;
let client: JsonRpcClient;

beforeAll(async () => {
  server = await startSolanaFixtureServer({ accounts, slot: 4242 });
  client = createJsonRpcClient({ url: server.url });
});
afterAll(() => server.close());

describe("getAccountInfo", () => {
  it("uses the node's default (a bare base58 string) when no encoding is given", async () => {
    const raw = await client.request<{ value: { data: unknown } }>("getAccountInfo", [SMALL]);
    expect(typeof raw.value.data).toBe("string");
    const { context, value } = await getAccountInfo(client, { address: SMALL });
    expect(context.slot).toBe(4242);
    expect(value?.dataEncoding).toBe("base58");
    expect(value?.data).toEqual(dataOf(SMALL));
    expect(value).toMatchObject({ lamports: 1_000_000_000n, owner: SYSTEM_PROGRAM, executable: false, space: 10 });
    expect(value?.rentEpoch).toBe(18446744073709551615n);
  });

  it.each(["base58", "base64", "base64+zstd"] as const)("decodes %s data to bytes", async (encoding) => {
    for (const key of [SMALL, EXACTLY_128, EMPTY, PROGRAM]) {
      const { value } = await getAccountInfo(client, { address: key, encoding });
      expect(value?.dataEncoding).toBe(encoding);
      expect(value?.data).toEqual(dataOf(key));
      expect(value?.space).toBe(dataOf(key).length);
    }
  });

  it("reads large data through real zstd and keeps u64 lamports exact", async () => {
    const raw = await client.request<{ value: { data: [string, string] } }>("getAccountInfo", [LARGE, { encoding: "base64+zstd" }]);
    const wire = Buffer.from(raw.value.data[0], "base64");
    expect([...wire.subarray(0, 4)]).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
    expect(wire.length).toBeLessThan(dataOf(LARGE).length / 4);
    const { value } = await getAccountInfo(client, { address: LARGE, encoding: "base64+zstd" });
    expect(value?.data).toEqual(dataOf(LARGE));
    expect(value?.lamports).toBe(2n ** 60n + 1n);
    expect(value?.rentEpoch).toBe(361n);
  });

  it("keeps jsonParsed data as the parsed JSON, and bytes where the owner has no parser", async () => {
    const parsed = await getAccountInfo(client, { address: MINT, encoding: "jsonParsed" });
    expect(parsed.value?.dataEncoding).toBe("jsonParsed");
    expect(parsed.value?.data).toEqual({ ...MINT_PARSED, space: 82 });
    const fallback = await getAccountInfo(client, { address: SMALL, encoding: "jsonParsed" });
    expect(fallback.value?.dataEncoding).toBe("base64");
    expect(fallback.value?.data).toEqual(dataOf(SMALL));
  });

  it("reads executable accounts and data slices", async () => {
    const { value } = await getAccountInfo(client, { address: PROGRAM, encoding: "base64", dataSlice: { offset: 4, length: 8 } });
    expect(value?.executable).toBe(true);
    expect(value?.data).toEqual(dataOf(PROGRAM).subarray(4, 12));
    expect(value?.space).toBe(36);
  });

  it("returns null for a missing account, with the slot", async () => {
    await expect(getAccountInfo(client, { address: MISSING, encoding: "base64" })).resolves.toEqual({
      context: { slot: 4242, apiVersion: "2.2.0" },
      value: null,
    });
  });

  it("passes the node's -32600 for base58 over 128 bytes, also under the default encoding", async () => {
    for (const params of [{ address: LARGE, encoding: "base58" as const }, { address: LARGE }]) {
      const error = await getAccountInfo(client, params).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidRequestRpcError);
      expect((error as InvalidRequestRpcError).code).toBe(-32600);
      expect((error as Error).message).toBe("Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.");
    }
    // 128 bytes is still allowed.
    await expect(getAccountInfo(client, { address: EXACTLY_128, encoding: "base58" })).resolves.toBeTruthy();
  });

  it("passes the node's -32602 and slice errors with their text", async () => {
    const badEncoding = await getAccountInfo(client, { address: SMALL, encoding: "base32" as never }).catch((e: unknown) => e);
    expect(badEncoding).toBeInstanceOf(InvalidParamsRpcError);
    expect((badEncoding as Error).message).toMatch(/^Invalid params: unknown variant `base32`/);
    const slice = await getAccountInfo(client, { address: MINT, encoding: "jsonParsed", dataSlice: { offset: 0, length: 1 } }).catch((e: unknown) => e);
    expect(slice).toBeInstanceOf(InvalidRequestRpcError);
    expect((slice as Error).message).toBe("Sliced account data can only be encoded using binary (base 58) or base64 encoding.");
  });

  it("refuses bad keys before sending anything", async () => {
    const before = server.httpRequests;
    for (const bad of ["", "0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl", "abc", SMALL + SMALL, SMALL.slice(0, -3)]) {
      await expect(getAccountInfo(client, { address: bad })).rejects.toBeInstanceOf(InvalidPublicKeyError);
    }
    expect(server.httpRequests).toBe(before);
  });

  it("fixture: the node itself answers bad keys with -32602 Invalid param", async () => {
    await expect(client.request("getAccountInfo", ["0OIl"])).rejects.toThrow("Invalid param: Invalid");
    await expect(client.request("getAccountInfo", ["abc"])).rejects.toThrow("Invalid param: WrongSize");
    await expect(client.request("getAccountInfo", [SMALL + SMALL])).rejects.toThrow("Invalid param: WrongSize");
  });
});
