// The index-node fields beyond statuses and proofs, against the store's own writes: entityChangesInBlock
// reads back what each block wrote, subgraphFeatures what the manifest and schema declare, and graph-node's
// lenient request checks (a `String!` variable in a `Bytes!` position passes). That the answers equal
// graph-node's, and the schema its introspection, is the parity case `index-node`'s part.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeStore } from "../store/nodeStore.js";
import type { NodeStore } from "../store/types.js";
import { TEST_SCHEMA, account, approval, block, OWNER_A } from "../store/_test/fixtures.js";
import type { RunningServer } from "../../lib/http/index.js";
import { createStatusServer } from "./statusServer.js";

const DEP = "QmIndexNodeFields";
const MANIFEST = `specVersion: 1.2.0
features:
  - grafting
  - nonFatalErrors
dataSources:
  - kind: ethereum/contract
    name: Token
    network: localhost
    mapping:
      apiVersion: 0.0.9
      eventHandlers:
        - event: Approval(indexed address,indexed address,uint256)
          handler: handleApproval
      blockHandlers:
        - handler: handleBlock
          filter:
            kind: once
templates:
  - kind: file/ipfs
    name: Meta
    mapping:
      apiVersion: 0.0.9
      handler: handleMeta
`;

describe("index-node fields", () => {
  let store: NodeStore;
  let server: RunningServer;
  const post = async (query: string, variables?: Record<string, unknown>) =>
    (await fetch(`${server.url}/graphql`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query, variables }) })).json() as Promise<{ data?: Record<string, unknown> | null; errors?: { message: string }[] }>;

  beforeAll(async () => {
    store = await createNodeStore({});
    await store.createDeployment({ id: DEP, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: MANIFEST });
    const first = approval(1, OWNER_A, "b");
    await store.transact(DEP, block(2), [
      { op: "set", entityType: "Account", id: "b", data: account("b", "B", 2n) },
      { op: "set", entityType: "Account", id: "a", data: account("a", "A", 1n, { count: { kind: "Int", value: 7 } }) },
      { op: "set", entityType: "ApprovalQuery", id: first.id, data: first.data },
    ]);
    await store.transact(DEP, block(3), [
      { op: "set", entityType: "Account", id: "a", data: account("a", "A2", 5n) },
      { op: "remove", entityType: "Account", id: "b" },
    ]);
    server = await createStatusServer({ store, port: 0, chainHead: async () => block(10) });
  });
  afterAll(async () => {
    await server.close();
    await store.close();
  });

  it("gives each block's sets and removals, types and ids in order, fields by name", async () => {
    const q = `query C($n: Int!) { c: entityChangesInBlock(subgraphId: "${DEP}", blockNumber: $n) { updates { type entities } deletions { type entities } } }`;
    expect((await post(q, { n: 2 })).data?.c).toEqual({
      updates: [
        { type: "Account", entities: [{ balance: "1", count: 7, id: "a", name: "A" }, { balance: "2", id: "b", name: "B" }] },
        { type: "ApprovalQuery", entities: [{ account: "b", blockNumber: "1", id: "0x00000001", owner: OWNER_A, spender: `0x${"22".repeat(20)}`, value: (10n ** 18n).toString() }] },
      ],
      deletions: [],
    });
    expect((await post(q, { n: 3 })).data?.c).toEqual({ updates: [{ type: "Account", entities: [{ balance: "5", id: "a", name: "A2" }] }], deletions: [{ type: "Account", entities: ["b"] }] });
    expect((await post(q, { n: 4 })).data?.c).toEqual({ updates: [], deletions: [] });
  });

  it("reads the features from the manifest and schema, every data source kind and handler kind", async () => {
    const r = await post(`{ f: subgraphFeatures(subgraphId: "${DEP}") { apiVersion specVersion features dataSources handlers network } }`);
    expect(r.data?.f).toEqual({
      apiVersion: "0.0.9", specVersion: "1.2.0", network: "localhost",
      // The manifest's in graph-node's order, then what the schema uses: immutable types, Bytes ids.
      features: ["nonFatalErrors", "grafting", "immutableEntities", "bytesAsIds"],
      dataSources: ["ethereum/contract", "file/ipfs"],
      handlers: ["block_filter_once", "event"],
    });
    expect((await post('{ f: subgraphFeatures(subgraphId: "QmNone") { specVersion } }')).errors?.[0]?.message).toMatch(/QmNone/);
  });

  it("takes a String! variable where Bytes! is expected, as graph-node does, and still refuses what does not coerce", async () => {
    const q = "query P($h: String!) { p: proofOfIndexing(subgraph: \"QmNone\", blockNumber: 2, blockHash: $h) }";
    expect(await post(q, { h: block(2).hash })).toEqual({ data: { p: null } });
    expect((await post(q, { h: 5 })).errors?.[0]?.message).toBe("Invalid value provided for argument `h`: Int(Number(5))");
    expect((await post(q, {})).errors?.[0]?.message).toBe("No value provided for required variable `h`");
    expect((await post("{ nope }")).errors?.[0]?.message).toBe("Type `Query` has no field `nope`");
  });

  it("shows graph-node's introspection: no directives, no __ types listed, bare built-in scalars", async () => {
    const r = await post("{ __schema { directives { name } types { name description } } s: __type(name: \"ChainIndexingStatus\") { interfaces { name } possibleTypes { name } } }");
    const schema = r.data?.__schema as { directives: unknown[]; types: { name: string; description: string | null }[] };
    expect(schema.directives).toEqual([]);
    expect(schema.types.filter((t) => t.name.startsWith("__"))).toEqual([]);
    expect(schema.types.find((t) => t.name === "String")).toEqual({ name: "String", description: null });
    expect(r.data?.s).toEqual({ interfaces: null, possibleTypes: [{ name: "EthereumIndexingStatus" }] });
    // Variables still coerce as graphql-js's String does.
    expect((await post("query Q($s: String!) { indexingStatusForCurrentVersion(subgraphName: $s) { subgraph } }", { s: 1 })).errors?.[0]?.message).toBe("Invalid value provided for argument `s`: Int(Number(1))");
  });

  it("answers apiVersions, the size of the deployment's tables, and null chain data without a provider", async () => {
    // graph-node 0.45's own answer, whatever the deployment (statusServer.ts says why).
    expect(await post(`{ v: apiVersions(subgraphId: "${DEP}") { version } }`)).toEqual({ data: null, errors: [{ locations: [{ line: 1, column: 3 }], message: "Null value resolved for non-null field `apiVersions`" }] });
    const size = (await post(`{ s: indexingStatuses(subgraphs: ["${DEP}"]) { subgraphSize { rowEstimate tableSize indexSize toastSize totalSize } } }`)).data?.s as { subgraphSize: Record<string, string> }[];
    expect(Number(size[0]!.subgraphSize.totalSize)).toBeGreaterThan(0);
    expect(Number(size[0]!.subgraphSize.totalSize)).toBeGreaterThanOrEqual(Number(size[0]!.subgraphSize.tableSize));
    const r = await post(`{ h: blockHashFromNumber(network: "localhost", blockNumber: 2) d: blockData(network: "localhost", blockHash: "${block(2).hash}") c: cachedEthereumCalls(network: "localhost", blockHash: "${block(2).hash}") { idHash } }`);
    expect(r).toEqual({ data: { h: null, d: null, c: null } });
  });
});
