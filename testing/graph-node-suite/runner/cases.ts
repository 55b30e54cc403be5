// graph-node's runner tests that feed a linear chain, restated (tests/tests/runner_tests.rs): the same
// blocks, the same queries and expected answers. The tests that feed reorged branches, restart or rewind
// the deployment, or read graph-node's store directly are not among them (see the README).
import { assert, assertEqual, at } from "../expect.js";
import type { CaseContext } from "../types.js";
import { emptyBlocks, testHash } from "./mockBlocks.js";
import type { RunnerCase } from "./types.js";

async function data(ctx: CaseContext, query: string): Promise<unknown> {
  const resp = await ctx.query(query);
  assertEqual(`errors of ${query}`, resp.errors ?? null, null);
  return resp.data ?? null;
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
        // The status API ends the store's message with " in handler `H` at block #N (hash)"; the Rust test
        // reads the store's own, so that suffix (and any wasm backtrace) is cut off here.
        const message = String(at(error, "message") ?? "").split("\twasm backtrace:")[0]?.replace(/ in handler `[^`]*` at block #\d+ \([0-9a-f]+\)$/, "");
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
  ];
}
