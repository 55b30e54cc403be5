// The network config for a Hardhat chain, written into the scratch copy of sushiswap/subgraphs the way
// that monorepo keeps one per network: `config/<network>.js`, the view its subgraphs' `generate` script
// renders each `template.yaml` with (`mustache ../../config/$NETWORK.js template.yaml > subgraph.yaml`).
// The blocks subgraph reads `network` and `blocks.{address,startBlock}` from it.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderTemplate, type TemplateView } from "../template.js";
import type { BlocksDeployment } from "./scenario.js";

export const BLOCKS_DIR = join("subgraphs", "blocks");

export async function writeBlocksNetworkConfig(checkoutDir: string, network: string, deployment: BlocksDeployment): Promise<void> {
  const view: TemplateView = { network, blocks: { address: deployment.factory.toLowerCase(), startBlock: deployment.startBlock } };
  await writeFile(join(checkoutDir, "config", `${network}.js`), `// A local Hardhat chain (written by parity/real-subgraphs).\nmodule.exports = ${JSON.stringify(view, null, 2)}\n`);
  const dir = join(checkoutDir, BLOCKS_DIR);
  await writeFile(join(dir, "subgraph.yaml"), renderTemplate(await readFile(join(dir, "template.yaml"), "utf8"), view));
}
