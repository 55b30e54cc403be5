// The differences between the local node and graph-node that hold for any subgraph: where the local
// node knowingly answers otherwise (an error's wording, a trap's backtrace, ties graph-node leaves
// unbroken). Every parity run accepts them; a suite of cases adds its own, each with its reason.
import type { AcceptedDifference } from "./accepted.js";

export const KNOWN_DIFFERENCES: readonly AcceptedDifference[] = [
  {
    case: "*",
    subject: "query:error.syntax",
    reason:
      "A query that does not parse: graph-node's Rust parser (graphql-parser) words its error differently from graphql-js, and its text even names a different stray character from run to run (\"Unexpected `\\u0000[Punctuator]`\" once, \"Unexpected `t[Punctuator]`\" the next), so there is no stable text to match. Both engines answer data null with one error.",
  },
  {
    case: "*",
    subject: "afterwards:query:error.syntax",
    reason:
      "As query:error.syntax, after the reorg.",
  },
  {
    case: "*",
    subject: "status.fatalError.message",
    reason:
      "graph-node puts wasmtime's backtrace of the trap before the mapping's message (\"error while executing at wasm backtrace: 0: 0x322d - <unknown>!src/mapping.as/ApprovalHandler: \"), with code offsets of its own compilation; this host runs on V8 and does not reproduce it. Everything else in the message is compared exactly as status.fatalError.message.core, which must match.",
  },
  {
    case: "*",
    subject: "*query:*.childOrder.*__id",
    reason:
      "Ordering by a reference's id (`orderBy: owner__id`): graph-node breaks no ties, so rows with the same reference come back in whatever order its Postgres plan yields (not stable by definition); the local node breaks ties by id. Ordering by the referenced entity's other fields matches exactly.",
  },
  {
    case: "*",
    subject: "*index-node:version",
    reason:
      "The index-node API's `version`: graph-node answers its own release and commit (0.45.0, 5973cd99...), the local node `0.0.0-local` and `local`; both answer the same shape.",
  },
  {
    case: "*",
    subject: "*index-node:blockData@*",
    reason:
      "`blockData` answers graph-node's chain-store copy of the block: alloy's serialization (yParity and the blob fields in transactions, no totalDifficulty or size), and for a block it kept with its receipts `{block, transaction_receipts}`; the local node keeps no chain store of its own and answers the provider's `eth_getBlockByHash(hash, true)` as the provider writes it. The fields both carry (hash, number, parent, roots, bloom, gas, miner, timestamp, extra data, base fee, the transactions' hashes) are compared exactly as blockHeader@N, which must match.",
  },
  {
    case: "*",
    subject: "*index-node:subgraphFeatures.unknownDeployment",
    reason:
      "subgraphFeatures of a deployment the node does not have: graph-node looks for its manifest through its link resolver, which in `gnd dev` reads files (\"Failed to read file Qm...: No such file or directory\"), where a graph-node on IPFS would name IPFS; the local node answers that the deployment does not exist.",
  },
];
