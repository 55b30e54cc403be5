// The network config for a Hardhat chain, written into the scratch copy of ourzora/nouns-builder the way
// its subgraph keeps one per network: `apps/subgraph/config/<network>.json` (the Manager's address and
// start block, and whether the chain has call traces), rendered into the manifest as its
// `prepare:<network>` script does (`mustache config/<network>.json subgraph.yaml.mustache > subgraph.yaml`).
// Call handlers stay off, as in the repository's configs for the chains without traces: graph-node
// cannot trace calls on Hardhat.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderTemplate, type TemplateView } from "../template.js";
import type { NounsDeployment } from "./scenario.js";

export const NOUNS_SUBGRAPH_DIR = join("apps", "subgraph");

export async function writeNounsNetworkConfig(checkoutDir: string, network: string, deployment: NounsDeployment): Promise<void> {
  const dir = join(checkoutDir, NOUNS_SUBGRAPH_DIR);
  const view: TemplateView = { network, manager: { address: deployment.manager.toLowerCase(), startBlock: deployment.startBlock }, callHandlers: false };
  await writeFile(join(dir, "config", `${network}.json`), `${JSON.stringify(view, null, 2)}\n`);
  await writeFile(join(dir, "subgraph.yaml"), renderTemplate(await readFile(join(dir, "subgraph.yaml.mustache"), "utf8"), view));
}
