// A composition case's second step: with its source subgraphs deployed on both engines (the first at the
// engines' start, the others beside it), the case's own subgraph, whose data sources are `kind:
// subgraph`, is built with the local node's ids of the sources (graph-cli's codegen reads their schemas
// from the local node's IPFS) and deployed on each engine with `source.address` naming that engine's id
// of each source (the local node's IPFS hash, gnd dev's manifest path). It is deployed at once, while the
// sources still index: it must follow them.
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { buildSubgraph, type BuiltSubgraph } from "../lib/subgraphBuild.js";
import type { Engine, RunningEngines } from "./engines.js";
import { readDeploymentId } from "./status.js";

export interface DeployComposedParameters {
  /** The composed subgraph's project folder. */
  projectDir: string;
  /** Its sources' builds after the first (which the engines started with), in manifest order. */
  moreSources: BuiltSubgraph[];
  name: string;
  network: string;
  startBlock: number;
  /** The local node's IPFS API, where the sources' manifests are. */
  ipfsUrl: string;
}

export async function deployComposed(engines: RunningEngines, p: DeployComposedParameters): Promise<{ local: Engine; graphNode: Engine }> {
  const sources: { local: Engine; graphNode: Engine }[] = [{ local: engines.local, graphNode: engines.graphNode }];
  for (const [i, source] of p.moreSources.entries()) sources.push(await engines.deployAnother(source, `${p.name}-source-${i + 1}`, async () => undefined));
  const ids = await Promise.all(sources.map(async (s) => ({ local: await readDeploymentId(s.local), graphNode: await readDeploymentId(s.graphNode) })));
  const names = await subgraphDataSourceNames(join(p.projectDir, "subgraph.yaml"));
  if (names.length !== ids.length) throw new Error(`${p.projectDir}: ${names.length} subgraph data sources for ${ids.length} source subgraphs`);
  const built = await buildSubgraph({
    projectDir: p.projectDir,
    files: ["subgraph.yaml", "schema.graphql", "src"],
    network: p.network,
    // graph-cli's network file knows no subgraph data sources: the manifest names the sources itself.
    networkFile: false,
    address: "",
    startBlock: p.startBlock,
    prepare: (workDir) => setSources(join(workDir, "subgraph.yaml"), ids.map((id) => id.local), p.startBlock),
    codegenIpfs: p.ipfsUrl,
  });
  // gnd reads its own copy of the build, naming its ids; the local deploy builds the work copy again.
  const graphNodeBuild = `${built.buildDir}-graph-node`;
  await cp(built.buildDir, graphNodeBuild, { recursive: true });
  await setSources(join(graphNodeBuild, "subgraph.yaml"), ids.map((id) => id.graphNode), p.startBlock);
  // A name of its own: deployed under the first source's, it would displace that source, which then stops
  // indexing (graph-node's instant version switch unassigns the old version) and holds it back for good.
  return engines.deployAnother({ ...built, buildDir: graphNodeBuild }, `${p.name}-composed`, async () => undefined);
}

async function subgraphDataSourceNames(manifestPath: string): Promise<string[]> {
  const doc = parseDocument(await readFile(manifestPath, "utf8")).toJS() as { dataSources?: { kind?: string; name?: string }[] };
  return (doc.dataSources ?? []).filter((d) => d.kind === "subgraph").map((d) => String(d.name));
}

/** Writes each `kind: subgraph` data source's `source.address` (in manifest order) and start block. */
async function setSources(manifestPath: string, addresses: string[], startBlock: number): Promise<void> {
  const doc = parseDocument(await readFile(manifestPath, "utf8"));
  const dataSources = (doc.toJS() as { dataSources: { kind?: string }[] }).dataSources;
  let next = 0;
  dataSources.forEach((d, i) => {
    if (d.kind !== "subgraph") return;
    const address = addresses[next++];
    if (address === undefined) throw new Error(`${manifestPath}: more subgraph data sources than sources`);
    doc.setIn(["dataSources", i, "source", "address"], address);
    doc.setIn(["dataSources", i, "source", "startBlock"], startBlock);
  });
  await writeFile(manifestPath, doc.toString());
}
