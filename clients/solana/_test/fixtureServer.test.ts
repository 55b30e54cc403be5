import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureAccounts, SMALL } from "./accounts.js";
import { startSolanaFixtureServer, type SolanaFixtureServer } from "./fixtureServer.js";

let server: SolanaFixtureServer;
beforeAll(async () => {
  server = await startSolanaFixtureServer({ accounts: fixtureAccounts(), slot: 9 });
});
afterAll(() => server.close());

async function post(body: string): Promise<unknown> {
  const res = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json" }, body });
  return res.json();
}

describe("Solana fixture server (JSON-RPC envelope as Agave answers it)", () => {
  it("answers an unknown method with -32601", async () => {
    await expect(post(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "getFoo", params: [] }))).resolves.toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32601, message: "Method not found" },
    });
  });

  it("answers malformed JSON with -32700 and a null id", async () => {
    await expect(post("{nope")).resolves.toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  });

  it("answers a request without jsonrpc 2.0, or an empty batch, with -32600", async () => {
    await expect(post(JSON.stringify({ id: 1, method: "getAccountInfo" }))).resolves.toMatchObject({ error: { code: -32600 } });
    await expect(post("[]")).resolves.toMatchObject({ error: { code: -32600, message: "Invalid request" } });
  });

  it("answers batches item by item", async () => {
    const reply = (await post(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "getAccountInfo", params: [SMALL, { encoding: "base64" }] },
        { jsonrpc: "2.0", id: 2, method: "nope" },
      ]),
    )) as { id: number; result?: { context: { slot: number } }; error?: unknown }[];
    expect(reply).toHaveLength(2);
    expect(reply[0]?.result?.context.slot).toBe(9);
    expect(reply[1]?.error).toEqual({ code: -32601, message: "Method not found" });
  });
});
