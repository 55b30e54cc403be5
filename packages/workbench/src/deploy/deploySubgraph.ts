import { join, resolve } from "node:path";
import { runGraphCli, stripAnsi, type GraphCliRunner } from "../lib/graphCli.js";
import { maskSecrets, secretsInUrl } from "../lib/redact.js";
import { localEndpoints } from "./endpoints.js";
import { DeployError } from "./errors.js";
import { ipfsHttpAdder } from "./ipfsHttpAdder.js";
import { uploadBuild } from "./uploadBuild.js";

export interface DeploySubgraphParameters {
  name: string;
  versionLabel: string;
  /** graph-node admin JSON-RPC, or the platform's deploy address (with its key). Default: the local node. */
  deployUrl?: string;
  /** IPFS RPC, or the platform's IPFS address (with its key). Default: the local node. */
  ipfsUrl?: string;
  /** networks.json entry to deploy for (graph-cli `--network`). */
  network?: string;
  networkFile?: string;
  /** Directory of the subgraph project (subgraph.yaml). */
  cwd?: string;
  /** Run `graph create` first; the platform creates subgraphs in its console instead. */
  create?: boolean;
  /** Every output line of graph-cli, with access keys masked. */
  onOutput?: (text: string) => void;
  /** Another graph-cli's entry point (the release the subgraph was built with); the project's by default. */
  graphCliBin?: string;
  /**
   * A manifest already uploaded (`graph build --ipfs` prints it): deployed as it is with
   * `graph deploy --ipfs-hash`, without compiling the mappings again.
   */
  ipfsHash?: string;
  /**
   * A folder with a graph-cli build (its subgraph.yaml), relative to `cwd`: uploaded to `ipfsUrl` as
   * `graph build --ipfs` would upload it, then deployed by that hash, without compiling again.
   */
  buildDir?: string;
  /** Runs graph-cli another way than a fresh process (a warm one, as `npm start` does). */
  graphCliRunner?: GraphCliRunner;
}

export interface DeploySubgraphReturnType {
  /** The `Queries (HTTP)` address graph-cli printed. */
  queryUrl: string | null;
  /** The deployment id (IPFS hash of the manifest). */
  deploymentId: string | null;
  /** graph-cli's whole output, masked. */
  output: string;
}

/** Deploys with the unmodified graph-cli (`graph create` + `graph deploy`), keeping keys out of output. */
export async function deploySubgraph(params: DeploySubgraphParameters): Promise<DeploySubgraphReturnType> {
  const deployUrl = params.deployUrl ?? localEndpoints.deploy;
  const ipfsUrl = params.ipfsUrl ?? localEndpoints.ipfs;
  const secrets = [...secretsInUrl(deployUrl), ...secretsInUrl(ipfsUrl)];
  const mask = (text: string) => maskSecrets(stripAnsi(text), secrets);
  const options = { ...(params.cwd ? { cwd: params.cwd } : {}), ...(params.graphCliBin ? { bin: params.graphCliBin } : {}), ...(params.graphCliRunner ? { runner: params.graphCliRunner } : {}), onOutput: (text: string) => params.onOutput?.(mask(text)) };
  let output = "";
  if (params.ipfsHash && params.buildDir) throw new DeployError("give deploySubgraph an ipfsHash or a buildDir, not both", deployUrl);
  // The build goes up first: a folder that cannot be uploaded leaves no subgraph created for nothing.
  const ipfsHash = params.buildDir ? await uploadBuildDir(params.buildDir, ipfsUrl, params) : params.ipfsHash;

  if (params.create ?? true) {
    const created = await runGraphCli(["create", "--node", deployUrl, params.name], options);
    const text = mask(created.stdout + created.stderr);
    output += text;
    if (created.code !== 0 && !/already exists/i.test(text)) {
      throw new DeployError(`graph create failed for "${params.name}":\n${text.trim()}`, deployUrl);
    }
  }

  const args = ["deploy", "--node", deployUrl, "--ipfs", ipfsUrl, "--version-label", params.versionLabel, ...(ipfsHash ? ["--ipfs-hash", ipfsHash] : [])];
  if (params.network) args.push("--network", params.network);
  if (params.networkFile) args.push("--network-file", params.networkFile);
  args.push(params.name);
  const deployed = await runGraphCli(args, options);
  const text = mask(deployed.stdout + deployed.stderr);
  output += text;
  if (deployed.code !== 0 || /Failed to deploy|Error:/i.test(text)) {
    throw new DeployError(`graph deploy failed for "${params.name}":\n${text.trim()}`, deployUrl);
  }
  return {
    queryUrl: /Queries \(HTTP\):\s+(\S+)/.exec(text)?.[1] ?? null,
    deploymentId: ipfsHash ?? /(Qm[1-9A-HJ-NP-Za-km-z]{44})/.exec(/Build completed:.*|Deployed to.*/.exec(text)?.[0] ?? text)?.[1] ?? null,
    output,
  };
}

/** The build folder's upload, matching the graph-cli that deploys it. */
function uploadBuildDir(buildDir: string, ipfsUrl: string, params: DeploySubgraphParameters): Promise<string> {
  const projectDir = params.cwd ?? process.cwd();
  return uploadBuild(join(resolve(projectDir, buildDir), "subgraph.yaml"), ipfsHttpAdder(ipfsUrl), { projectDir, ...(params.graphCliBin ? { graphCliBin: params.graphCliBin } : {}) });
}
