import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createIpfsStore } from "../ipfs/ipfsStore.js";
import type { IpfsStore } from "../ipfs/types.js";
import { publishFixture } from "../manifest/_test/fixtures.js";
import type { LoadedDeployment } from "../manifest/types.js";
import { createNodeStore } from "../store/nodeStore.js";
import type { NodeStore } from "../store/types.js";
import { createAdminServer } from "./adminServer.js";
import type { RunningAdminServer } from "./types.js";

let store: NodeStore;
let ipfs: IpfsStore;
let admin: RunningAdminServer;
let deployed: { loaded: LoadedDeployment; name: string; versionLabel: string | null }[] = [];
const events: string[] = [];

beforeAll(async () => {
  store = await createNodeStore({});
  ipfs = await createIpfsStore();
  admin = await createAdminServer({
    store,
    ipfs,
    port: 0,
    queryPort: 18000,
    async onDeploy(loaded, name, versionLabel) {
      deployed.push({ loaded, name, versionLabel });
    },
    onPause: async (id) => void events.push(`pause ${id}`),
    onResume: async (id) => void events.push(`resume ${id}`),
    onRemove: async (name) => void events.push(`remove ${name}`),
  });
});

afterAll(async () => {
  await admin?.close();
  await store?.close();
});

beforeEach(() => {
  deployed = [];
  events.length = 0;
});

const JSON_TYPE = { "content-type": "application/json" };

async function post(body: unknown): Promise<unknown> {
  const res = await fetch(admin.url, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json" } });
  expect(res.status).toBe(200);
  return res.json();
}

async function call(method: string, params: unknown, id: number | string = 1): Promise<{ result?: unknown; error?: { code: number; message: string }; id: unknown }> {
  return (await post({ jsonrpc: "2.0", method, params, id })) as { result?: unknown; error?: { code: number; message: string }; id: unknown };
}

describe("admin JSON-RPC framing (graph-node's)", () => {
  it("answers parse errors, invalid requests, unknown methods", async () => {
    expect(await post("{not json")).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
    expect(await post({ jsonrpc: "2.0", id: 1 })).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
    expect(await post({ jsonrpc: "1.0", method: "subgraph_create", id: 1 })).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request" }, id: null });
    expect(await post([])).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request" }, id: null });
    expect(await call("subgraph_frobnicate", {}, "abc")).toEqual({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: "abc" });
  });

  it("runs notifications without answering them, in batches and alone", async () => {
    const batch = await post([
      { jsonrpc: "2.0", method: "subgraph_create", params: { name: "framing/notified" } },
      { jsonrpc: "2.0", method: "subgraph_frobnicate", id: 7 },
    ]);
    expect(batch).toEqual([{ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 7 }]);
    expect(await store.subgraphExists("framing/notified")).toBe(true);
    expect(await post({ jsonrpc: "2.0", method: "subgraph_remove", params: { name: "framing/notified" } })).toEqual({ jsonrpc: "2.0", result: null, id: null });
    expect(await store.subgraphExists("framing/notified")).toBe(false);
  });

  it("answers 413 to a body over axum's 2 MiB limit", async () => {
    const res = await fetch(admin.url, { method: "POST", body: "x".repeat(2 * 1024 * 1024 + 1), headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("length limit exceeded");
  });

  it("serves POST / only", async () => {
    expect((await fetch(admin.url)).status).toBe(405);
    expect((await fetch(`${admin.url}/other`, { method: "POST", body: "{}" })).status).toBe(404);
    expect(admin.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe("admin: browsers cannot drive it", () => {
  const removeBody = JSON.stringify({ jsonrpc: "2.0", method: "subgraph_remove", params: { name: "browser/victim" }, id: 1 });

  it("refuses the text/plain POST a page can send with no-cors (415), and leaves the subgraph", async () => {
    await call("subgraph_create", { name: "browser/victim" });
    for (const type of ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", undefined]) {
      const res = await fetch(admin.url, { method: "POST", body: Buffer.from(removeBody), ...(type ? { headers: { "content-type": type } } : {}) });
      expect(res.status, String(type)).toBe(415);
      expect(await res.text()).toBe("Expected request with `Content-Type: application/json`");
    }
    expect(await store.subgraphExists("browser/victim")).toBe(true);
  });

  it("refuses a foreign Origin even with a JSON body (403), and serves loopback pages and jayson's header", async () => {
    await call("subgraph_create", { name: "browser/victim" });
    const foreign = await fetch(admin.url, { method: "POST", body: removeBody, headers: { ...JSON_TYPE, Origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(await store.subgraphExists("browser/victim")).toBe(true);
    const local = await fetch(admin.url, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", method: "subgraph_create", params: { name: "browser/local" }, id: 1 }), headers: { "content-type": "application/json; charset=utf-8", Origin: "http://localhost:3000" } });
    expect(((await local.json()) as { result?: unknown }).result).toEqual({ id: expect.any(String) });
  });
});

describe("admin params (serde's messages)", () => {
  it.each([
    [{ name: "bad name" }, 'Invalid params: invalid value: string "bad name", expected valid subgraph name'],
    [{ name: "a/graphql" }, 'Invalid params: invalid value: string "a/graphql", expected valid subgraph name'],
    [{ name: "-a" }, 'Invalid params: invalid value: string "-a", expected valid subgraph name'],
    [{ name: "123" }, 'Invalid params: invalid value: string "123", expected valid subgraph name'],
    [{}, "Invalid params: missing field `name`"],
    [{ name: 5 }, "Invalid params: invalid type: integer `5`, expected a string"],
    [null, "Invalid params: invalid type: null, expected struct SubgraphCreateParams"],
  ])("subgraph_create %j -> %s", async (params, message) => {
    expect((await call("subgraph_create", params)).error).toEqual({ code: -32602, message });
  });

  it("validates deploy fields and node ids", async () => {
    expect((await call("subgraph_deploy", { name: "a", ipfs_hash: "not/a hash" })).error?.message).toBe(
      'Invalid params: invalid value: string "not/a hash", expected valid subgraph name',
    );
    expect((await call("subgraph_deploy", { name: "a", ipfs_hash: "Qm", history_blocks: "x" })).error?.message).toBe(
      'Invalid params: invalid type: string "x", expected i32',
    );
    expect((await call("subgraph_reassign", { ipfs_hash: "Qm", node_id: "" })).error?.message).toBe('Invalid params: invalid value: string "", expected valid node ID');
  });
});

describe("admin methods over the store", () => {
  it("creates a subgraph and answers its id, and the same id for a second create (graph-node's behaviour)", async () => {
    const first = await call("subgraph_create", { name: "methods/create" });
    expect(first.result).toEqual({ id: expect.any(String) });
    expect(await store.subgraphExists("methods/create")).toBe(true);
    expect((await call("subgraph_create", { name: "methods/create" })).result).toEqual(first.result);
  });

  it("answers graph-node's NameExists error when the store cannot look the id up", async () => {
    const { subgraphId: _dropped, ...withoutLookup } = store;
    const server = await createAdminServer({ store: withoutLookup, ipfs, port: 0, onDeploy: async () => {} });
    try {
      const rpc = async (name: string) =>
        (await (await fetch(server.url, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ jsonrpc: "2.0", method: "subgraph_create", params: { name }, id: 1 }) })).json()) as { error?: unknown };
      await rpc("methods/no-lookup");
      expect((await rpc("methods/no-lookup")).error).toEqual({ code: 2, message: "subgraph already exists: methods/no-lookup" });
    } finally {
      await server.close();
    }
  });

  it("answers the existing id for a second create when the store can look it up (graph-node's behaviour)", async () => {
    const ids = new Map<string, string>();
    const lookupStore = {
      ...store,
      async createSubgraph(name: string) {
        const created = await store.createSubgraph(name);
        ids.set(name, created.id);
        return created;
      },
      subgraphId: async (name: string) => ids.get(name) ?? null,
    };
    const server = await createAdminServer({ store: lookupStore, ipfs, port: 0, onDeploy: async () => {} });
    try {
      const rpc = async (name: string) =>
        (await (await fetch(server.url, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ jsonrpc: "2.0", method: "subgraph_create", params: { name }, id: 1 }) })).json()) as { result?: { id: string } };
      const first = await rpc("methods/create-twice");
      expect(first.result?.id).toEqual(expect.any(String));
      expect((await rpc("methods/create-twice")).result).toEqual(first.result);
    } finally {
      await server.close();
    }
  });

  it("deploys: validates, writes the deployment and version, calls onDeploy, answers graph-node's routes", async () => {
    await call("subgraph_create", { name: "methods/deploy" });
    const hash = await publishFixture(ipfs);
    const answer = await call("subgraph_deploy", { name: "methods/deploy", ipfs_hash: hash, version_label: "v1" });
    expect(answer.result).toEqual({ playground: ":18000/subgraphs/name/methods/deploy/graphql", queries: ":18000/subgraphs/name/methods/deploy" });
    expect(deployed).toHaveLength(1);
    expect(deployed[0]).toMatchObject({ name: "methods/deploy", versionLabel: "v1", loaded: { id: hash, network: "localhost" } });
    expect(await store.resolveName("methods/deploy")).toBe(hash);
    expect(await store.getDeployment(hash)).toMatchObject({ id: hash, network: "localhost", startBlock: 2, manifest: deployed[0]!.loaded.manifestYaml });
  });

  it("rejects bad deploys with graph-node's errors and leaves the current version serving", async () => {
    await call("subgraph_create", { name: "methods/bad" });
    const good = await publishFixture(ipfs);
    expect((await call("subgraph_deploy", { name: "methods/bad", ipfs_hash: good })).result).toBeDefined();
    const before = (await store.listDeployments()).length;
    deployed = [];

    const unknownHash = await call("subgraph_deploy", { name: "methods/bad", ipfs_hash: "QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH" });
    expect(unknownHash.error).toEqual({
      code: 0,
      message:
        "subgraph resolve error: resolve error: failed to resolve manifest: IPFS content from 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH' is not available: not in this node's IPFS store",
    });
    const unparsable = await publishFixture(ipfs, { rawManifest: "specVersion: [\n" });
    expect((await call("subgraph_deploy", { name: "methods/bad", ipfs_hash: unparsable })).error?.message).toMatch(/^subgraph resolve error: parse error: /);
    const noHandler = await publishFixture(ipfs, { exports: ["somethingElse"] });
    expect((await call("subgraph_deploy", { name: "methods/bad", ipfs_hash: noHandler })).error).toEqual({
      code: 0,
      message: expect.stringMatching(/^subgraph validation error: \[data source ApprovalToken is invalid: event handler `ApprovalHandler` .* is not exported by the mapping Qm\w+\]$/),
    });

    expect(deployed).toEqual([]);
    expect(await store.resolveName("methods/bad")).toBe(good);
    expect((await store.listDeployments()).length).toBe(before);
  });

  it("lets the node add checks before anything is written (graph-node's network and start block checks)", async () => {
    const server = await createAdminServer({
      store,
      ipfs,
      port: 0,
      onDeploy: async () => {
        throw new Error("must not be called");
      },
      checkDeployment: async (loaded) => `subgraph validation error: [the specified block ${loaded.dataSources[0]!.startBlock} must exist on the Ethereum network]`,
    });
    try {
      await call("subgraph_create", { name: "methods/checked" });
      const hash = await publishFixture(ipfs, {
        edit(m) {
          m.dataSources[0].source.startBlock = 99;
        },
      });
      const res = await fetch(server.url, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ jsonrpc: "2.0", method: "subgraph_deploy", params: { name: "methods/checked", ipfs_hash: hash }, id: 1 }) });
      expect(((await res.json()) as { error: unknown }).error).toEqual({ code: 0, message: "subgraph validation error: [the specified block 99 must exist on the Ethereum network]" });
      expect(await store.getDeployment(hash)).toBeNull();
      expect(await store.resolveName("methods/checked")).toBeNull();
    } finally {
      await server.close();
    }
  });

  it("rejects a deploy to an unknown name after validating the manifest", async () => {
    const hash = await publishFixture(ipfs);
    expect((await call("subgraph_deploy", { name: "methods/nobody", ipfs_hash: hash })).error).toEqual({ code: 0, message: "subgraph name not found: methods/nobody" });
    expect(deployed).toEqual([]);
  });

  it("removes names (an unknown name is a no-op, as in graph-node)", async () => {
    await call("subgraph_create", { name: "methods/remove" });
    expect(await call("subgraph_remove", { name: "methods/remove" })).toMatchObject({ result: null });
    expect(await store.subgraphExists("methods/remove")).toBe(false);
    expect(events).toEqual(["remove methods/remove"]);
    expect(await call("subgraph_remove", { name: "methods/remove" })).toMatchObject({ result: null });
  });

  it("pauses, resumes and reassigns existing deployments only", async () => {
    await call("subgraph_create", { name: "methods/pause" });
    const hash = await publishFixture(ipfs, {
      edit(m) {
        m.dataSources[0].source.startBlock = 7;
      },
    });
    await call("subgraph_deploy", { name: "methods/pause", ipfs_hash: hash });
    expect(await call("subgraph_pause", { deployment: hash })).toMatchObject({ result: null });
    expect((await store.getDeployment(hash))?.paused).toBe(true);
    expect(await call("subgraph_resume", { deployment: hash })).toMatchObject({ result: null });
    expect((await store.getDeployment(hash))?.paused).toBe(false);
    expect(events).toEqual([`pause ${hash}`, `resume ${hash}`]);

    const unknown = "QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH";
    expect((await call("subgraph_pause", { deployment: unknown })).error).toEqual({ code: 4, message: `deployment not found: ${unknown}` });
    expect((await call("subgraph_resume", { deployment: unknown })).error).toEqual({ code: 5, message: `deployment not found: ${unknown}` });
    expect((await call("subgraph_reassign", { ipfs_hash: unknown, node_id: "default" })).error).toEqual({ code: 3, message: `deployment not found: ${unknown}` });
    expect(await call("subgraph_reassign", { ipfs_hash: hash, node_id: "default" })).toMatchObject({ result: null });
  });
});
