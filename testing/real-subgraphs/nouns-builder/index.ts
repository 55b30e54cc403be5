// ourzora/nouns-builder's subgraph (the public subgraph of Nouns Builder DAOs), unchanged but for its
// network config, over the npm artifacts of the Nouns Builder protocol. Its Manager data source creates
// five data sources per DAO from templates with `createWithContext`, and every template handler finds its
// DAO through `dataSource.context()`; the mappings also make eth_calls (try_ and plain) and decode
// base64 token metadata with the `as-base64` package the subgraph depends on.
import type { RealSubgraph } from "../types.js";
import { checkNounsEntities } from "./checks.js";
import { NOUNS_SUBGRAPH_DIR, writeNounsNetworkConfig } from "./networkConfig.js";
import { runNounsScenario } from "./scenario.js";

const NETWORK = "localhost";

export function nounsBuilder(): RealSubgraph {
  return {
    name: "nouns-builder",
    upstream: { repository: "ourzora/nouns-builder", commit: "e74aa88eda381d5a1ab4ba99d17b16266fe9dfd5" },
    expectedFiles: [`${NOUNS_SUBGRAPH_DIR}/subgraph.yaml.mustache`, `${NOUNS_SUBGRAPH_DIR}/src/manager.ts`, `${NOUNS_SUBGRAPH_DIR}/config`],
    subgraphDir: NOUNS_SUBGRAPH_DIR,
    network: NETWORK,
    // Its package.json pins graph-cli ^0.87.0; 0.97 and later refuse its schema (no `immutable` argument).
    graphCliPackage: "graph-cli-0.87",
    buildFiles: ["subgraph.yaml", "schema.graphql", "src", "abis"],
    async scenario({ chainUrl, log }) {
      const deployment = await runNounsScenario(chainUrl, log);
      return {
        dataSource: "Manager",
        address: deployment.manager,
        startBlock: deployment.startBlock,
        pastBlocks: deployment.pastBlocks,
        configure: (checkoutDir) => writeNounsNetworkConfig(checkoutDir, NETWORK, deployment),
        check: (context) => checkNounsEntities(deployment, context),
      };
    },
  };
}
