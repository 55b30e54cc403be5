// Our real subgraph as the indexer sees a deployment, built by graph-cli for a token address:
// for tests and the benchmark that drive the indexer below the admin server.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { id as keccakId } from "ethers";
import { buildSubgraph } from "../../lib/subgraphBuild.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import type { IndexedDeployment } from "../indexer/types.js";

export async function buildApprovalDeployment(token: { proxy: string; startBlock: number }, id = "QmLocal"): Promise<IndexedDeployment> {
  const built = await buildSubgraph({ address: token.proxy, startBlock: token.startBlock });
  const wasm = await readFile(join(built.buildDir, "ApprovalToken", "ApprovalToken.wasm"));
  const abi = JSON.parse(await readFile(join(projectRoot, "abis", "ApprovalToken.json"), "utf8")) as unknown[];
  return {
    id,
    schemaSdl: await readFile(join(projectRoot, "schema.graphql"), "utf8"),
    network: "localhost",
    dataSources: [
      {
        kind: "ethereum",
        name: "ApprovalToken",
        network: "localhost",
        address: token.proxy.toLowerCase(),
        startBlock: token.startBlock,
        apiVersion: "0.0.7",
        abis: { ApprovalToken: abi },
        abiName: "ApprovalToken",
        eventHandlers: [{ event: "Approval(indexed address,indexed address,uint256)", handler: "ApprovalHandler", topic0: keccakId("Approval(address,address,uint256)"), receipt: false }],
        wasmModule: await WebAssembly.compile(wasm),
      },
    ],
  };
}
