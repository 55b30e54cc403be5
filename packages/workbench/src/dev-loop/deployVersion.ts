// One version of the watched subgraph: `graph codegen` (when the schema, the ABIs or the manifest
// changed), `graph build --ipfs` with the unmodified graph-cli, which uploads what it has just compiled,
// then graph-node's admin `subgraph_deploy` of that hash. `graph deploy` would compile it all again.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BaseError, errorText } from "../lib/errors.js";
import { builtManifestHash, stripAnsi, type GraphCliResult } from "../lib/graphCli.js";

export type DevStep = "codegen" | "build" | "deploy";

/** A version that could not be built or deployed; `output` is what graph-cli or the node said. */
export class DevVersionError extends BaseError {
  override name = "DevVersionError";
  constructor(
    readonly step: DevStep,
    readonly output: string,
    options: { cause?: unknown } = {},
  ) {
    super(`${step} failed`, { ...options, deterministic: step !== "deploy", details: { step } });
  }
}

export interface DeployVersionParameters {
  /** The subgraph folder (subgraph.yaml, schema.graphql, src/, abis/). */
  dir: string;
  name: string;
  versionLabel: string;
  /** Run `graph codegen` first. */
  codegen: boolean;
  /** The networks.json entry to build for; none when the folder has no networks.json. */
  network: string | null;
  adminUrl: string;
  ipfsUrl: string;
  /** Runs the unmodified graph-cli (a warm one: lib/warmGraphCli.ts). */
  graph: (args: string[], options: { cwd: string }) => Promise<GraphCliResult>;
}

export interface DeployedVersion {
  deploymentId: string;
  /** Milliseconds per step (codegen 0 when skipped). */
  timings: Record<DevStep, number>;
}

/** Builds, uploads and deploys one version; throws DevVersionError naming the step that failed. */
export async function deployVersion(params: DeployVersionParameters): Promise<DeployedVersion> {
  const timings: Record<DevStep, number> = { codegen: 0, build: 0, deploy: 0 };
  let started = Date.now();
  if (params.codegen) {
    await graphStep(params, "codegen", ["codegen", "--output-dir", "generated/"]);
    timings.codegen = Date.now() - started;
  }
  started = Date.now();
  const network = params.network && existsSync(join(params.dir, "networks.json")) ? ["--network", params.network] : [];
  const built = await graphStep(params, "build", ["build", "--ipfs", params.ipfsUrl, ...network]);
  const deploymentId = builtManifestHash(built);
  if (!deploymentId) throw new DevVersionError("build", `graph build printed no IPFS hash:\n${built}`);
  timings.build = Date.now() - started;
  started = Date.now();
  await adminCall(params.adminUrl, "subgraph_create", { name: params.name }, /already exists/);
  await adminCall(params.adminUrl, "subgraph_deploy", { name: params.name, ipfs_hash: deploymentId, version_label: params.versionLabel });
  timings.deploy = Date.now() - started;
  return { deploymentId, timings };
}

async function graphStep(params: DeployVersionParameters, step: DevStep, args: string[]): Promise<string> {
  const result = await params.graph(args, { cwd: params.dir });
  // graph-cli's stack frames say nothing about the user's error.
  const output = stripAnsi(result.stdout + result.stderr)
    .split("\n")
    .filter((line) => !/^\s+at \S/.test(line))
    .join("\n")
    .trim();
  if (result.code !== 0) throw new DevVersionError(step, output);
  return output;
}

/** One admin JSON-RPC call; an error whose message matches `tolerated` counts as done. */
async function adminCall(url: string, method: string, params: Record<string, unknown>, tolerated?: RegExp): Promise<void> {
  let body: { error?: { message?: string } };
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(60_000),
    });
    body = (await response.json()) as typeof body;
  } catch (error) {
    throw new DevVersionError("deploy", `${method}: the node at ${url} did not answer (${errorText(error)})`, { cause: error });
  }
  const message = body.error?.message;
  if (message !== undefined && !tolerated?.test(message)) throw new DevVersionError("deploy", `${method}: ${message}`);
}
