// graph-node's integration cases whose test is a few queries with fixed answers
// (tests/tests/integration_tests.rs), restated: the same queries, the same expected values.
import { assert, assertEqual, at } from "../expect.js";
import type { CaseContext, IntegrationCase } from "../types.js";
import { querySucceeds } from "./querySucceeds.js";

const healthy = (ctx: CaseContext) => assert(ctx.subgraph.healthy, "the subgraph is healthy (assert!(subgraph.healthy))");

/** `foos_0` at block 0 is empty and `foos` holds one entity with `value`. */
async function oneFooAtHead(ctx: CaseContext, value: string): Promise<void> {
  healthy(ctx);
  const resp = await ctx.query(`{
        foos_0: foos(orderBy: id, block: { number: 0 }) { id }
        foos(orderBy: id) { id value }
      }`);
  assertEqual("errors", resp.errors ?? null, null);
  assertEqual("data", resp.data, { foos_0: [], foos: [{ id: "0", value }] });
}

export const int8: IntegrationCase = { name: "int8", test: (ctx) => oneFooAtHead(ctx, "9223372036854775807") };

export const timestamp: IntegrationCase = { name: "timestamp", test: (ctx) => oneFooAtHead(ctx, "1710837304040956") };

export const valueRoundtrip: IntegrationCase = {
  name: "value-roundtrip",
  async test(ctx) {
    healthy(ctx);
    await querySucceeds("test query", ctx, `{
        foos_0: foos(orderBy: id, block: { number: 0 }) { id }
        foos(orderBy: id) { id value }
      }`, { foos: [{ id: "0", value: "bla" }], foos_0: [] });
  },
};

export const ethereumApi: IntegrationCase = {
  name: "ethereum-api-tests",
  async test(ctx) {
    healthy(ctx);
    await querySucceeds("Balance should be right", ctx, '{ foo(id: "1") { id balance hasCode1 hasCode2 } }', {
      foo: { id: "1", balance: "10000000000000000000000", hasCode1: false, hasCode2: true },
    });
  },
};

export const topicFilter: IntegrationCase = {
  name: "topic-filter",
  async test(ctx) {
    healthy(ctx);
    await querySucceeds("all overloads of the contract function are called", ctx, "{ anotherTriggerEntities(orderBy: id) {  a b c data } }", {
      anotherTriggerEntities: [
        { a: "1", b: "2", c: "3", data: "abc" },
        { a: "1", b: "1", c: "1", data: "abc" },
      ],
    });
  },
};

export const revertedCalls: IntegrationCase = {
  name: "reverted-calls",
  async test(ctx) {
    healthy(ctx);
    await querySucceeds("all overloads of the contract function are called", ctx, "{ calls(orderBy: id) { id reverted returnValue } }", {
      calls: [
        { id: "100", reverted: true, returnValue: null },
        { id: "9", reverted: false, returnValue: "10" },
      ],
    });
  },
};

export const hostExports: IntegrationCase = { name: "host-exports", test: async (ctx) => healthy(ctx) };

export const overloadedFunctions: IntegrationCase = {
  name: "overloaded-functions",
  async test(ctx) {
    healthy(ctx);
    await querySucceeds("all overloads of the contract function are called", ctx, "{ calls(orderBy: id) { id value } }", {
      calls: [
        { id: "bytes32 -> uint256", value: "256" },
        { id: "string -> string", value: "string -> string" },
        { id: "uint256 -> string", value: "uint256 -> string" },
      ],
    });
  },
};

export const removeThenUpdate: IntegrationCase = {
  name: "remove-then-update",
  async test(ctx) {
    healthy(ctx);
    await querySucceeds("all overloads of the contract function are called", ctx, "{ foos(orderBy: id) { id value removed } }", { foos: [{ id: "0", removed: true, value: null }] });
  },
};

const SUBGRAPH_FEATURES = `query GetSubgraphFeatures($deployment: String!) {
          subgraphFeatures(subgraphId: $deployment) {
            specVersion
            apiVersion
            features
            dataSources
            network
            handlers
          }
        }`;

export const blockHandlers: IntegrationCase = {
  name: "block-handlers",
  async test(ctx) {
    healthy(ctx);
    const numbered = (ns: number[]) => ns.map((n) => ({ id: String(n), number: String(n) }));
    await querySucceeds("test non-filtered blockHandler", ctx, "{ blocks(orderBy: number, first: 10) { id number } }", { blocks: numbered([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) });
    await querySucceeds("test query", ctx, "{ foos(orderBy: value, skip: 1) { id value } }", { foos: Array.from({ length: 11 }, (_, i) => ({ id: String(i), value: String(i) })) });
    await querySucceeds("should call intialization handler first", ctx, '{ foo( id: "initialize" ) { id value } }', { foo: { id: "initialize", value: "-1" } });
    await querySucceeds("test blockHandler with polling filter", ctx, "{ blockFromPollingHandlers(orderBy: number, first: 3) { id number } }", { blockFromPollingHandlers: numbered([1, 4, 7]) });
    await querySucceeds("test other blockHandler with polling filter", ctx, "{ blockFromOtherPollingHandlers(orderBy: number, first: 3) { id number } }", { blockFromOtherPollingHandlers: numbered([2, 4, 6]) });
    await querySucceeds("test initialization handler", ctx, "{ initializes(orderBy: block, first: 10) { id block } }", { initializes: [{ id: "1", block: "1" }] });
    const features = await ctx.status(SUBGRAPH_FEATURES, { deployment: ctx.subgraph.deployment });
    const handlers = at(features, "data", "subgraphFeatures", "handlers");
    assert(Array.isArray(handlers), "subgraphFeatures.handlers must be an array", features);
    for (const handler of ["block_filter_polling", "block_filter_once", "block", "event"]) assert(handlers.includes(handler), `handlers ${JSON.stringify(handlers)} must contain ${handler}`);
  },
};

export const nonFatalErrors: IntegrationCase = {
  name: "non-fatal-errors",
  async test(ctx) {
    assert(!ctx.subgraph.healthy, "the subgraph is not healthy (assert!(!subgraph.healthy))");
    const features = await ctx.status(SUBGRAPH_FEATURES, { deployment: ctx.subgraph.deployment });
    assertEqual("subgraphFeatures", at(features, "data", "subgraphFeatures"), {
      specVersion: "0.0.4",
      apiVersion: "0.0.6",
      features: ["nonFatalErrors"],
      dataSources: ["ethereum/contract"],
      handlers: ["block"],
      network: "test",
    });
    const resp = await ctx.query("{ foos(orderBy: id, subgraphError: allow) { id } }");
    assertEqual("errors of foos with subgraphError: allow", resp.errors ?? null, [{ message: "indexing_error" }]);
    // "1" and "11" are absent: their handlers failed.
    assertEqual("data of foos with subgraphError: allow", resp.data ?? null, { foos: [{ id: "0" }, { id: "00" }] });
  },
};

export const subgraphDataSources: IntegrationCase = {
  name: "subgraph-data-sources",
  sources: [{ case: "source-subgraph", kind: "subgraph" }],
  async test(ctx) {
    healthy(ctx);
    const block = (n: number, v: number) => ({ id: `${n}-v${v}`, number: String(n), testMessage: v === 3 ? `${n}-message` : null });
    await querySucceeds("Query all blocks with testMessage", ctx, "{ mirrorBlocks(where: {number_lte: 3}, orderBy: number) { id, number, testMessage } }", {
      mirrorBlocks: [1, 2, 3].flatMap((n) => [block(n, 1), block(n, 2), block(n, 3)]),
    });
    await querySucceeds("Query specific block with testMessage", ctx, '{ mirrorBlock(id: "1-v3") { id, number, testMessage } }', { mirrorBlock: block(1, 3) });
  },
};

export const multipleSubgraphDatasources: IntegrationCase = {
  name: "multiple-subgraph-datasources",
  sources: [
    { case: "source-subgraph-a", kind: "subgraph" },
    { case: "source-subgraph-b", kind: "subgraph" },
  ],
  async test(ctx) {
    healthy(ctx);
    await querySucceeds("should aggregate data from multiple sources", ctx, "{ aggregatedDatas(first: 1) { id sourceA sourceB first } }", {
      aggregatedDatas: [{ id: "0", sourceA: "from source A", sourceB: "from source B", first: "sourceA" }],
    });
  },
};
