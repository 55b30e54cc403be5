// graph-node's runner tests that feed a linear chain, restated (tests/tests/runner_tests.rs): the same
// blocks, the same queries and expected answers. The tests that feed reorged branches, restart or rewind
// the deployment, or read graph-node's store directly are not among them (see the README).
import { assert, assertEqual, at } from "../expect.js";
import type { CaseContext } from "../types.js";
import { finishPoi, poiVersionOf } from "../../../packages/workbench/src/local-node/poi/index.js";
import { emptyBlocks, testHash, type RunnerBlock } from "./mockBlocks.js";
import type { RunnerCase } from "./types.js";

async function data(ctx: CaseContext, query: string): Promise<unknown> {
  const resp = await ctx.query(query);
  assertEqual(`errors of ${query}`, resp.errors ?? null, null);
  return resp.data ?? null;
}

/** graph-node's `generate_empty_blocks_for_range(parent, from, to, reorg)`. */
const blockRange = (from: number, to: number, reorg = 0): RunnerBlock[] => Array.from({ length: to - from + 1 }, (_, i) => ({ number: from + i, reorg }));

const HEALTH = `query h($d: String!) { indexingStatuses(subgraphs: [$d]) { health nonFatalErrors { message } fatalError { message } } }`;

async function assertHealthy(ctx: CaseContext): Promise<void> {
  const status = at(await ctx.status(HEALTH, { d: ctx.subgraph.deployment }), "data", "indexingStatuses", 0);
  assertEqual("health", { health: at(status, "health"), fatalError: at(status, "fatalError"), nonFatalErrors: at(status, "nonFatalErrors") }, { health: "healthy", fatalError: null, nonFatalErrors: [] });
}

const STATUS = `query s($d: String!) { indexingStatuses(subgraphs: [$d]) { health entityCount fatalError { message deterministic block { number } handler } } }`;
const POI = `query p($d: String!, $n: Int!, $h: Bytes!) { proofOfIndexing(subgraph: $d, blockNumber: $n, blockHash: $h) }`;

export function runnerCases(): RunnerCase[] {
  return [
    {
      name: "api_version_0_0_7",
      folder: "api-version",
      manifest: "subgraph-0.0.7.yaml",
      render: { template: "subgraph.template.yaml", data: "data.0.0.7.json" },
      blocks: [{ number: 0 }, { number: 1, logs: ["0.0.7"] }],
      async test(ctx) {
        // Before apiVersion 0.0.8 a mapping may set fields the schema lacks.
        assertEqual("testResults", await data(ctx, "{ testResults{ id, message } }"), { testResults: [{ id: "0.0.7", message: "0.0.7" }] });
      },
    },
    {
      name: "api_version_0_0_8",
      folder: "api-version",
      manifest: "subgraph-0.0.8.yaml",
      render: { template: "subgraph.template.yaml", data: "data.0.0.8.json" },
      blocks: [{ number: 0 }, { number: 1, logs: ["0.0.8"] }],
      async test(ctx) {
        const resp = await ctx.status(STATUS, { d: ctx.subgraph.deployment });
        const error = at(resp, "data", "indexingStatuses", 0, "fatalError");
        // The status API ends the store's message with " in handler `H` at block #N (hash)", and graph-node
        // puts wasmtime's backtrace before the mapping's text ("error while executing at wasm backtrace:
        // ... <function>: "); the Rust test reads the store's message of its fixture, without either.
        const message = String(at(error, "message") ?? "")
          .replace(/error while executing at wasm backtrace:[\s\S]*?![^:]*: /, "")
          .replace(/ in handler `[^`]*` at block #\d+ \([0-9a-f]+\)$/, "");
        assertEqual("the fatal error's message", message, "transaction 0000000000000000000000000000000000000000000000000000000000000000: Attempted to set undefined fields [invalid_field] for the entity type `TestResult`. Make sure those fields are defined in the schema.");
        assertEqual("the fatal error's block", at(error, "block", "number"), "1");
        assertEqual("the fatal error's handler", at(error, "handler"), null);
        assertEqual("the fatal error is deterministic", at(error, "deterministic"), true);
      },
    },
    {
      name: "block_handlers",
      folder: "block-handlers",
      manifest: "subgraph.yaml",
      blocks: [...emptyBlocks(3), { number: 4, logs: ["create_template"] }, ...[5, 6, 7, 8, 9, 10].map((number) => ({ number }))],
      async test(ctx) {
        const row = (n: number) => ({ id: String(n), hash: testHash(n) });
        assertEqual("blockFromPollingHandlers", await data(ctx, "{ blockFromPollingHandlers(first: 3) { id, hash } }"), { blockFromPollingHandlers: [row(0), row(4), row(8)] });
        // graph-node's expectation leaves out block 4 (the template's creation block): its fixture's
        // triggers adapter does not reprocess a block for data sources created in it (a TODO there).
        assertEqual("blockFromOtherPollingHandlers", await data(ctx, "{ blockFromOtherPollingHandlers(first: 4, orderBy: number) { id, hash } }"), { blockFromOtherPollingHandlers: [row(6), row(8), row(10)] });
      },
    },
    {
      name: "fatal_error",
      folder: "fatal-error",
      manifest: "subgraph.yaml",
      blocks: emptyBlocks(3),
      omitted: "the proof at block 100 (read from graph-node's store past the head) and the rewind that unfails the deployment (a test-fixture call)",
      async test(ctx) {
        const resp = await ctx.status(STATUS, { d: ctx.subgraph.deployment });
        const status = at(resp, "data", "indexingStatuses", 0);
        assertEqual("health", at(status, "health"), "failed");
        assertEqual("entityCount (only the PoI)", at(status, "entityCount"), "1");
        assertEqual("the fatal error's block", at(status, "fatalError", "block", "number"), "3");
        assertEqual("the fatal error is deterministic", at(status, "fatalError", "deterministic"), true);
        const poi = async (n: number) => {
          const answer = await ctx.status(POI, { d: ctx.subgraph.deployment, n, h: testHash(n) });
          assertEqual(`errors of proofOfIndexing at block ${n}`, answer.errors ?? null, null);
          return at(answer, "data", "proofOfIndexing");
        };
        const [poi2, poi3] = [await poi(2), await poi(3)];
        assert(typeof poi2 === "string" && typeof poi3 === "string", "proofs at blocks 2 and 3 are strings", { poi2, poi3 });
        assert(poi2 !== poi3, "poi2 != poi3", { poi2, poi3 });
      },
    },
    {
      name: "skip_duplicates",
      folder: "skip-duplicates",
      manifest: "subgraph.yaml",
      blocks: emptyBlocks(4),
      async test(ctx) {
        assertEqual("ping", await data(ctx, '{ ping(id: "duplicate-entity") { id, value } }'), { ping: { id: "duplicate-entity", value: "ping" } });
      },
    },
    {
      name: "typename",
      folder: "typename",
      manifest: "subgraph.yaml",
      blocks: emptyBlocks(1),
      // The fixture streams block 1, then its replacement: here the chain is served to block 1, then the
      // branch with block 1 replaced (hash 12) and blocks 2 and 3 on it.
      async test(ctx) {
        await ctx.reorgTo([{ number: 0 }, { number: 1, hash: testHash(12) }, { number: 2 }, { number: 3 }]);
        // `start_and_sync_to` fails the test on any error; the mapping asserts on `__typename`.
        await assertHealthy(ctx);
      },
    },
    {
      name: "derived_loaders",
      folder: "derived-loaders",
      manifest: "subgraph.yaml",
      blocks: [{ number: 0 }, { number: 1, logs: ["1_0", "1_1"] }, { number: 2, logs: ["2_0"] }],
      async test(ctx) {
        const bar = (id: string, value: string) => ({ id, value, value2: "0" });
        const bytes = (text: string) => `0x${Buffer.from(text).toString("hex")}`;
        assertEqual("testResult 1_0 at block 1", await data(ctx, '{ testResult(id:"1_0", block: { number: 1 } ){ id barDerived{id value value2} bBarDerived{id value value2} } }'), {
          testResult: { id: "1_0", barDerived: [bar("0_1_0", "0"), bar("1_1_0", "0"), bar("2_1_0", "0")], bBarDerived: [bar(bytes("0_1_0"), "0"), bar(bytes("1_1_0"), "0"), bar(bytes("2_1_0"), "0")] },
        });
        assertEqual("testResult 1_1 at block 1", await data(ctx, '{ testResult(id:"1_1", block: { number: 1 } ){ id barDerived{id value value2} bBarDerived{id value value2} } }'), {
          testResult: { id: "1_1", barDerived: [bar("0_1_1", "1"), bar("2_1_1", "0")], bBarDerived: [bar(bytes("0_1_1"), "1"), bar(bytes("2_1_1"), "0")] },
        });
        assertEqual("testResult 2_0", await data(ctx, '{ testResult(id:"2_0" ){ id barDerived{id value value2} bBarDerived{id value value2} } }'), {
          testResult: { id: "2_0", barDerived: [bar("0_2_0", "2")], bBarDerived: [bar(bytes("0_2_0"), "2")] },
        });
      },
    },
    {
      name: "end_block",
      folder: "end-block",
      manifest: "subgraph.yaml",
      blocks: emptyBlocks(10),
      omitted: "the trigger filters before and after the end block (read from the runner's internals); the rewind to block 6 before the reorg, here a reorg of the served chain from block 8",
      async test(ctx) {
        const lastBlock = '{ blocks(first: 1, orderBy: number, orderDirection: desc) { number hash } }';
        assertEqual("the last Block entity (the end block is 8)", await data(ctx, lastBlock), { blocks: [{ number: "8", hash: testHash(8) }] });
        // The fixture rewinds to 6 and streams 7, 8 (reorged) and 9 on it. Over JSON-RPC the engine is at 10,
        // so the branch from 7 goes on past it (9 to 11 on the reorged 8) to be the longer chain.
        await ctx.reorgTo([...emptyBlocks(7), { number: 8, reorg: 1 }, ...blockRange(9, 11, 1)]);
        assertEqual("the last Block entity after the reorg", await data(ctx, lastBlock), { blocks: [{ number: "8", hash: testHash(8, 1) }] });
      },
    },
    {
      name: "template_static_filters_false_positives",
      folder: "dynamic-data-source",
      manifest: "subgraph.yaml",
      blocks: emptyBlocks(2),
      env: { GRAPH_EXPERIMENTAL_STATIC_FILTERS: "true" },
      // graph-node's test compares with a fixed hex, the proof of its own build's deployment id: restated as
      // the proof of a deployment that wrote nothing, computed for this build's id with the workbench's
      // port of graph-node's hashing (legacy for specVersion 0.0.4; no indexer, as the query names none).
      async test(ctx) {
        const answer = await ctx.status(POI, { d: ctx.subgraph.deployment, n: 1, h: testHash(1) });
        assertEqual(`errors of proofOfIndexing at block 1`, answer.errors ?? null, null);
        const expected = finishPoi({ deployment: ctx.subgraph.deployment, block: { number: 1, hash: Buffer.from(testHash(1).slice(2), "hex") }, indexer: null, regions: [], version: poiVersionOf("0.0.4") });
        assertEqual(`the proof of indexing at block 1 of ${ctx.subgraph.deployment} (no writes)`, at(answer, "data", "proofOfIndexing"), `0x${Buffer.from(expected).toString("hex")}`);
      },
    },
    {
      name: "parse_data_source_context",
      folder: "data-sources",
      manifest: "subgraph.yaml",
      blocks: emptyBlocks(2),
      async test(ctx) {
        assertEqual("data", await data(ctx, '{ data(id: "0") { id, foo, bar } }'), { data: { id: "0", foo: "test", bar: 1 } });
      },
    },
    {
      name: "data_source_long_revert",
      folder: "data-source-revert",
      manifest: "subgraph.yaml",
      blocks: [{ number: 0 }, ...blockRange(1, 5)],
      omitted: "the restart after the second sync (a fixture call); data_source_revert itself, whose stops, restarts and grafted redeploy are fixture calls",
      async test(ctx) {
        const count = async (when: string) => {
          // The fixture's expectation (5): its triggers adapter does not run a template in the block that creates it.
          assertEqual(`dataSourceCount 5 ${when}`, await data(ctx, '{ dataSourceCount(id: "5") { id, count } }'), { dataSourceCount: { id: "5", count: 5 } });
        };
        await count("after blocks 1-5");
        // A revert across five blocks: blocks 1-5 replaced by their reorged versions.
        await ctx.reorgTo([{ number: 0 }, ...blockRange(1, 5, 1)]);
        await count("after the reorged blocks 1-5");
      },
    },
    {
      name: "aggregation_current_bucket",
      folder: "aggregation-current-bucket",
      manifest: "subgraph.yaml",
      // Hour 1 (3600-7199): tokens, then two data points each; hour 2 starts at block 4 and rolls hour 1 up.
      blocks: [
        { number: 0, timestamp: 0 },
        { number: 1, timestamp: 3601, logs: ["token:0xaa:TokenA", "token:0xbb:TokenB"] },
        { number: 2, timestamp: 3660, logs: ["data:0xaa:10", "data:0xbb:20"] },
        { number: 3, timestamp: 3720, logs: ["data:0xaa:30", "data:0xbb:40"] },
        { number: 4, timestamp: 7201, logs: ["data:0xaa:5", "data:0xbb:15"] },
        { number: 5, timestamp: 7261, logs: ["data:0xaa:7", "data:0xbb:25"] },
      ],
      async test(ctx) {
        const stat = (id: string, sum: string) => ({ token: { id }, sum });
        assertEqual("stats with the current bucket", await data(ctx, '{ stats_collection(interval: "hour", current: include, orderBy: timestamp, orderDirection: asc) { token { id } sum } }'), {
          stats_collection: [stat("0xaa", "40"), stat("0xbb", "60"), stat("0xaa", "12"), stat("0xbb", "40")],
        });
        assertEqual("stats without it", await data(ctx, '{ stats_collection(interval: "hour", current: exclude, orderBy: timestamp, orderDirection: asc) { token { id } sum } }'), {
          stats_collection: [stat("0xaa", "40"), stat("0xbb", "60")],
        });
        assertEqual("each token's stats with the current bucket", await data(ctx, '{ tokens(orderBy: id) { id stats(interval: "hour", current: include, orderBy: timestamp, orderDirection: asc) { sum } } }'), {
          tokens: [
            { id: "0xaa", stats: [{ sum: "40" }, { sum: "12" }] },
            { id: "0xbb", stats: [{ sum: "60" }, { sum: "40" }] },
          ],
        });
      },
    },
  ];
}
