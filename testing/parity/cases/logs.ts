// `_logs` on a fixture whose handler logs at every level (local-node/e2e/_test/logs). `gnd dev` runs
// graph-node without a config file, so without a `[log_store]`, and nothing else gives it one (see the
// local node's README): graph-node cannot answer a valid `_logs` query here. What can be compared is:
// - everything else about the subgraph (status, proofs, entities, the generated corpus);
// - what graph-node decides before it looks for a log store, through the case's queries: `_logs`
//   beside an entity field, unknown fields and arguments, values of the wrong type, and the schema's
//   `_logs` types and arguments by introspection;
// - graph-node's answer to each valid `_logs` query without a log store ("not enabled on this
//   indexer"), as admin steps: the text graph-node's source gives for it, against graph-node's answer.
// The local node's answers to valid queries (it always has a log store) are checked against the chain
// by local-node/e2e/logsQuery.test.ts instead.
import { join } from "node:path";
import { Contract } from "ethers";
import { deployApprovalToken, readArtifact } from "../../../hardhat/deploy/index.js";
import { connectChain } from "../../../hardhat/deploy/signers.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import { postGraphQL } from "subgraph-workbench/parity";
import type { CorpusQuery, ParityCase } from "subgraph-workbench/parity";

/** The values the fixture logs something special for (0 info ... 5 an error with "Timeout"), then plain ones. */
const VALUES = [0n, 1n, 2n, 3n, 4n, 5n, 1000n, 1001n];

/** graph-node without a log store (graphql/src/execution/execution.rs), as its HTTP server answers it. */
const NOT_ENABLED = { status: 200, errors: [{ message: "Not supported: the `_logs` query is not enabled on this indexer" }] };

/** Valid `_logs` queries: those of graph-node's logs-query test, then ones its argument checks would refuse later. */
const VALID: CorpusQuery[] = [
  { id: "all", query: "{ _logs(first: 100) { id timestamp level text } }" },
  { id: "level", query: "{ _logs(level: ERROR, first: 100) { level text } }" },
  { id: "search", query: '{ _logs(search: "timeout", first: 100) { id text } }' },
  { id: "page1", query: "{ _logs(first: 2, skip: 0) { id } }" },
  { id: "page2", query: "{ _logs(first: 2, skip: 2) { id } }" },
  { id: "arguments", query: "{ _logs(first: 10) { text arguments { key value } } }" },
  { id: "selection", query: "{ _logs(first: 1) { id timestamp } }" },
  { id: "everyField", query: "{ _logs(orderDirection: asc) { id subgraphId timestamp level text arguments { key value } meta { module line column } __typename } }" },
  { id: "timeRange", query: '{ _logs(from: "2020-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z") { id } }' },
  { id: "withMeta", query: "{ _logs { id } _meta { deployment } __typename }" },
  { id: "withIntrospection", query: "{ _logs { id } __type(name: \"_Log_\") { name } }" },
  // graph-node ignores unknown arguments, and takes a string where an enum is expected (found by this case).
  { id: "unknownArgument", query: "{ _logs(block: { number: 1 }) { id } }" },
  { id: "levelAsString", query: '{ _logs(level: "ERROR") { id } }' },
  { id: "variables", query: "query($level: LogLevel, $first: Int) { _logs(level: $level, first: $first) { id } }", variables: { level: "DEBUG", first: 5 } },
  // graph-node checks these only once a log store answers (store/logs.rs): here they meet the missing store first.
  { id: "firstTooLarge", query: "{ _logs(first: 1001) { id } }" },
  { id: "levelWarning", query: "{ _logs(level: WARNING) { id } }" },
  { id: "emptySearch", query: '{ _logs(search: "") { id } }' },
  { id: "badTimestamp", query: '{ _logs(from: "yesterday") { id } }' },
];

const typeRef = "kind name ofType { kind name ofType { kind name ofType { kind name } } }";

/** Answered the same with or without a log store. */
const DECIDED_BEFORE_THE_STORE: CorpusQuery[] = [
  { id: "logs.combined", query: "{ _logs(first: 10) { id text } approvalQueries { id value } }" },
  { id: "logs.combinedSingular", query: '{ approvalQuery(id: "x") { id } _logs { id } }' },
  { id: "logs.unknownField", query: "{ _logs { id nope } }" },
  { id: "logs.levelNotInEnum", query: "{ _logs(level: WARN) { id } }" },
  { id: "logs.levelStringNotInEnum", query: '{ _logs(level: "LOUD") { id } }' },
  { id: "logs.firstNotInt", query: '{ _logs(first: "ten") { id } }' },
  { id: "logs.badDirection", query: "{ _logs(orderDirection: up) { id } }" },
  // graph-node drops a field of an object type given without a selection set (found by this case).
  { id: "logs.noSelection", query: "{ _logs }" },
  { id: "logs.noSelectionWithMeta", query: "{ _logs _meta { block { number } } }" },
  { id: "entities.noSelection", query: "{ approvalQueries _meta { block { number } } }" },
  // A string for an enum argument, on entity collections too.
  { id: "entities.enumAsString", query: '{ approvalQueries(first: 3, orderBy: "value", orderDirection: "desc") { value } }' },
  { id: "entities.enumStringNotInEnum", query: '{ approvalQueries(orderBy: "nope") { value } }' },
  { id: "logs.badVariable", query: "query($level: LogLevel) { _logs(level: $level) { id } }", variables: { level: "LOUD" } },
  { id: "logs.type.Log", query: `{ __type(name: "_Log_") { name kind description fields { name description args { name } type { ${typeRef} } } } }` },
  { id: "logs.type.LogArgument", query: `{ __type(name: "_LogArgument_") { name kind description fields { name description type { ${typeRef} } } } }` },
  { id: "logs.type.LogMeta", query: `{ __type(name: "_LogMeta_") { name kind description fields { name description type { ${typeRef} } } } }` },
  { id: "logs.type.LogLevel", query: '{ __type(name: "LogLevel") { name kind description enumValues { name description } } }' },
  { id: "logs.queryFields", query: `{ __type(name: "Query") { fields { name args { name defaultValue type { ${typeRef} } } type { ${typeRef} } } } }` },
  { id: "logs.field", query: `{ __schema { queryType { fields { name description args { name description } } } } }` },
];

export function logsCase(): ParityCase {
  return {
    name: "logs",
    projectDir: join(projectRoot, "packages", "workbench", "src", "local-node", "e2e", "_test", "logs"),
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      const { provider, signers } = await connectChain(chainUrl);
      try {
        const token = new Contract(deployed.proxy, (await readArtifact("ApprovalToken")).abi, signers[2]);
        let last = 0;
        for (const value of VALUES) {
          const tx = (await token.getFunction("approve")(`0x${(0x1000n + value).toString(16).padStart(40, "0")}`, value)) as { wait(): Promise<{ blockNumber: number }> };
          last = (await tx.wait()).blockNumber;
        }
        return { address: deployed.proxy, startBlock: deployed.startBlock, pastBlocks: [last - 3] };
      } finally {
        provider.destroy();
      }
    },
    queries: DECIDED_BEFORE_THE_STORE,
    async adminSteps({ graphNode }) {
      const out: [string, unknown, unknown][] = [];
      for (const q of VALID) out.push([`logs.notEnabled.${q.id}`, NOT_ENABLED, await postGraphQL(graphNode.queryUrl, q.query, q.variables ?? {})]);
      return out;
    },
  };
}
