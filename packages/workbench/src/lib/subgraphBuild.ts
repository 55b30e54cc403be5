import { cp, mkdtemp, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { parseManifestYaml } from "./manifestYaml.js";
import { builtManifestHash, graphCli, type GraphCliRunner } from "./graphCli.js";

export interface BuildSubgraphParameters {
  /** Where the built subgraph goes; a fresh temp dir when omitted. */
  outputDir?: string;
  /** The networks.json entry to build for; the project's networks.json is never touched. */
  network?: string;
  address: string;
  startBlock: number;
  /** The data source the address is for; the manifest's first data source when omitted. */
  dataSource?: string;
  /** The subgraph project's folder (the current folder by default). */
  projectDir?: string;
  /** Files and folders of the project to copy. */
  files?: string[];
  /** The node_modules to link beside the manifest: by default the one the project resolves graph-ts from. */
  nodeModules?: string;
  /** Another graph-cli's entry point to build with (see `graphCli`'s `bin`). */
  graphCliBin?: string;
  /** An IPFS API to upload the build to (`graph build --ipfs`), so a deploy can name it instead of compiling again. */
  ipfs?: string;
  /** Awaited after codegen, before the build: the IPFS node to upload to may still be starting. */
  ipfsReady?: Promise<unknown>;
  /** Runs graph-cli another way than a fresh process per command (a warm one). */
  runner?: GraphCliRunner;
  /** Runs on the work copy before codegen (a composed subgraph's manifest names its sources' ids there). */
  prepare?(workDir: string): Promise<void>;
  /**
   * false: no networks.json and no `--network` (graph-cli's network update knows no `kind: subgraph` data
   * source: a composed subgraph names its sources in the manifest itself, and `address`/`startBlock` are unused).
   */
  networkFile?: boolean;
  /** The IPFS API codegen reads a `kind: subgraph` data source's source schema from (graph-cli's default is a public one). */
  codegenIpfs?: string;
}

export interface BuiltSubgraph {
  /** The work copy the build ran in (has generated/). */
  workDir: string;
  /** graph-cli's output folder, containing subgraph.yaml. */
  buildDir: string;
  manifestPath: string;
  /** The graph-cli it was built with when not the project's: deploy it with the same one. */
  graphCliBin?: string;
  /** The uploaded manifest's hash, when built with `ipfs`. */
  ipfsHash?: string;
  /** false: built without networks.json (deploy it without `--network` too). */
  networkFile?: false;
}

/**
 * Builds a subgraph with graph-cli (codegen + build) in a private copy of the project, for one network
 * entry. Tests and tools use it so that parallel builds never rewrite the project's own files
 * (`graph build --network` rewrites subgraph.yaml in place).
 */
export async function buildSubgraph(params: BuildSubgraphParameters): Promise<BuiltSubgraph> {
  const projectDir = params.projectDir ?? process.cwd();
  const network = params.network ?? "localhost";
  const workDir = await mkdtemp(join(tmpdir(), "subgraph-build-"));
  for (const file of params.files ?? ["subgraph.yaml", "schema.graphql", "src", "abis"]) {
    await cp(join(projectDir, file), join(workDir, file), { recursive: true });
  }
  // graph-ts is resolved from node_modules next to the manifest: the one the project resolves it from.
  await symlink(params.nodeModules ?? nodeModulesWithGraphTs(projectDir), join(workDir, "node_modules"), "dir");
  const dataSource = params.dataSource ?? (await firstDataSourceName(join(workDir, "subgraph.yaml")));
  const networkFile = params.networkFile !== false;
  if (networkFile) await writeFile(
    join(workDir, "networks.json"),
    JSON.stringify({ [network]: { [dataSource]: { address: params.address, startBlock: params.startBlock } } }, null, 2),
  );
  const buildDir = params.outputDir ?? join(workDir, "build");
  await mkdir(buildDir, { recursive: true });
  const cli = { cwd: workDir, ...(params.graphCliBin ? { bin: params.graphCliBin } : {}), ...(params.runner ? { runner: params.runner } : {}) };
  await params.prepare?.(workDir);
  await graphCli(["codegen", "--output-dir", "generated/", ...(params.codegenIpfs ? ["--ipfs", params.codegenIpfs] : [])], cli);
  await params.ipfsReady;
  const built = await graphCli(["build", ...(networkFile ? ["--network", network, "--network-file", "networks.json"] : []), "--output-dir", buildDir, ...(params.ipfs ? ["--ipfs", params.ipfs] : [])], cli);
  const ipfsHash = params.ipfs ? builtManifestHash(built.stdout + built.stderr) : null;
  if (params.ipfs && !ipfsHash) throw new Error(`graph build --ipfs printed no manifest hash:\n${built.stdout}${built.stderr}`);
  return { workDir, buildDir, manifestPath: join(buildDir, "subgraph.yaml"), ...(params.graphCliBin ? { graphCliBin: params.graphCliBin } : {}), ...(ipfsHash ? { ipfsHash } : {}), ...(networkFile ? {} : { networkFile: false as const }) };
}

function nodeModulesWithGraphTs(projectDir: string): string {
  try {
    const packageJson = createRequire(join(projectDir, "package.json")).resolve("@graphprotocol/graph-ts/package.json");
    return dirname(dirname(dirname(packageJson)));
  } catch (cause) {
    throw new Error(`no @graphprotocol/graph-ts is installed for ${projectDir}: add it to the project (npm i @graphprotocol/graph-ts)`, { cause });
  }
}

async function firstDataSourceName(manifestPath: string): Promise<string> {
  const manifest = parseManifestYaml(await readFile(manifestPath, "utf8")) as { dataSources?: { name?: unknown }[] } | null;
  const name = manifest?.dataSources?.[0]?.name;
  if (typeof name !== "string") throw new Error(`${manifestPath} names no data source: pass dataSource`);
  return name;
}
