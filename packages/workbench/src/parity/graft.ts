// A grafting case's second step: with the base subgraph synced on both engines, the case's own subgraph
// is deployed on each with `graft.base` naming that engine's base deployment (the local node's IPFS
// hash, gnd dev's manifest path) and `graft.block` the scenario's graft block.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BuiltSubgraph } from "../lib/subgraphBuild.js";
import type { Engine, RunningEngines } from "./engines.js";
import { readDeploymentId, waitUntilSettled } from "./status.js";

export async function deployGraft(engines: RunningEngines, built: BuiltSubgraph, name: string, graftBlock: number, chainUrl: string): Promise<{ local: Engine; graphNode: Engine }> {
  await waitUntilSettled([engines.local, engines.graphNode], chainUrl);
  const bases = { local: await readDeploymentId(engines.local), "graph-node": await readDeploymentId(engines.graphNode) };
  return engines.deployAnother(built, name, async (label) => {
    // gnd reads the built manifest; graph-cli deploys from the work copy's source manifest.
    await setGraft(join(label === "graph-node" ? built.buildDir : built.workDir, "subgraph.yaml"), bases[label], graftBlock);
  });
}

/** Rewrites the manifest's `graft:` section (base and block), which must be there. */
async function setGraft(manifestPath: string, base: string, block: number): Promise<void> {
  const text = await readFile(manifestPath, "utf8");
  const rewritten = text.replace(/^graft:\n(?:[ \t]+\S.*\n)+/m, `graft:\n  base: "${base}"\n  block: ${block}\n`);
  if (rewritten === text) throw new Error(`${manifestPath} has no graft: section to fill in`);
  await writeFile(manifestPath, rewritten);
}
