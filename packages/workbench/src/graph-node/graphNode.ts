// The real graph-node as a process: `gnd dev` indexing already-built subgraphs (the `build/` folder next
// to each manifest) from one or more chains, into a PostgreSQL server, with the usual four ports.
//
// Facts this follows (tried on graph-node v0.45): the Postgres URL must carry a password; the deployment
// id is the path of build/subgraph.yaml and the first manifest is named `subgraph-0`; gnd ignores
// SIGTERM; it binds 0.0.0.0 (nothing here can change that); `graph deploy` of an IPFS hash fails in dev
// mode, but `subgraph_deploy` with the deployment id (the manifest path) names a deployment.
import type { ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { freePort } from "../lib/freePort.js";
import { maskUrl } from "../lib/redact.js";
import type { RunningServer } from "../lib/http/index.js";
import { findGndBinary } from "./gndBinary.js";
import { GraphNodeError } from "./errors.js";
import { startRpcAdapter } from "./rpcAdapter.js";
import { cutLifeline, spawnWithLifeline } from "../lib/lifeline.js";

export interface GraphNodePorts {
  query: number;
  admin: number;
  status: number;
  metrics: number;
}

export interface GraphNodeOptions {
  /** subgraph.yaml paths; each has its graph-cli build in `build/` beside it. */
  manifests: string[];
  /**
   * Source subgraphs for `kind: subgraph` data sources (`--sources ALIAS:MANIFEST`): a manifest naming
   * `alias` as its source address reads the one built beside `manifest`. gnd dev deploys each too.
   */
  sources?: { alias: string; manifest: string }[];
  /** The chains, by the network names the manifests use. */
  networks: { name: string; url: string }[];
  /** A PostgreSQL URL with a password (graph-node requires one; trust auth accepts any). */
  postgresUrl: string;
  /** IPFS RPC as host:port (the local node's IPFS serves). */
  ipfs: string;
  /** 0 picks a free port. */
  ports: GraphNodePorts;
  /** Re-deploy when a build folder changes. */
  watch?: boolean;
  /** Put the EDR adapter (rpcAdapter.ts) in front of each chain. Default true. */
  adaptChains?: boolean;
  /** How long until the status API lists every deployment (default 120 s). */
  startTimeoutMs?: number;
  onLog?: (line: string) => void;
  /** Extra environment for gnd (GRAPH_* settings). */
  env?: Record<string, string>;
}

export interface RunningGraphNode {
  urls: { query: string; admin: string; status: string };
  /** gnd dev's deployment ids (the build manifests' paths), in manifest order. */
  deployments: string[];
  /** The last lines gnd printed (for error reports). */
  logTail(): string[];
  close(): Promise<void>;
}

export async function startGraphNode(options: GraphNodeOptions): Promise<RunningGraphNode> {
  const binary = findGndBinary();
  const ports: GraphNodePorts = {
    query: options.ports.query || (await freePort()),
    admin: options.ports.admin || (await freePort()),
    status: options.ports.status || (await freePort()),
    metrics: options.ports.metrics || (await freePort()),
  };
  const adapters: RunningServer[] = [];
  const closeAdapters = () => Promise.all(adapters.map((a) => a.close())).then(() => undefined);
  try {
    const rpcArgs: string[] = [];
    for (const network of options.networks) {
      let url = network.url;
      if (options.adaptChains !== false) {
        const adapter = await startRpcAdapter({ target: network.url });
        adapters.push(adapter);
        url = adapter.url;
      }
      rpcArgs.push("--ethereum-rpc", `${network.name}:${url}`);
    }
    const manifests = options.manifests.map((m) => resolve(m));
    const args = [
      "dev",
      ...manifests.flatMap((m) => ["--manifests", m]),
      ...(options.sources ?? []).flatMap((s) => ["--sources", `${s.alias}:${resolve(s.manifest)}`]),
      "--postgres-url", options.postgresUrl,
      ...rpcArgs,
      "--ipfs", options.ipfs,
      "--http-port", String(ports.query),
      "--index-node-port", String(ports.status),
      "--admin-port", String(ports.admin),
      "--metrics-port", String(ports.metrics),
      ...(options.watch ? ["--watch"] : []),
    ];
    // Under a lifeline: gnd ends with this process, however it ends (a killed test run left it running).
    const child = spawnWithLifeline(binary, args, { lifeline: { signal: "INT", graceSeconds: GND_STOP_GRACE_SECONDS }, env: { ...process.env, GRAPH_LOG: process.env.GRAPH_LOG ?? "info", ...options.env } });
    const tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (!line) continue;
        tail.push(line);
        if (tail.length > 200) tail.shift();
        options.onLog?.(line);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    const urls = { query: `http://127.0.0.1:${ports.query}`, admin: `http://127.0.0.1:${ports.admin}`, status: `http://127.0.0.1:${ports.status}/graphql` };
    const close = async () => {
      await stopGnd(child, exited);
      await closeAdapters();
    };
    try {
      const deployments = await waitForDeployments(urls.status, manifests.length + (options.sources?.length ?? 0), exited, options.startTimeoutMs ?? 120_000);
      return { urls, deployments: orderByManifest(deployments, manifests), logTail: () => [...tail], close };
    } catch (error) {
      await close();
      throw new GraphNodeError(`graph-node did not start: ${error instanceof Error ? error.message : String(error)}\n${tail.slice(-15).join("\n")}`, {
        code: "GND_START",
        cause: error,
        details: { chains: options.networks.map((n) => `${n.name}:${maskUrl(n.url)}`) },
      });
    }
  } catch (error) {
    await closeAdapters();
    throw error;
  }
}

/** gnd dev's deployment id is the build manifest's path: match each to the manifest it came from. */
function orderByManifest(deployments: string[], manifests: string[]): string[] {
  return manifests.map((m, i) => deployments.find((d) => d.startsWith(resolve(m, "..", "build"))) ?? deployments[i] ?? "");
}

async function waitForDeployments(statusUrl: string, count: number, exited: Promise<number | null>, timeoutMs: number): Promise<string[]> {
  let ended: number | null | undefined;
  void exited.then((code) => (ended = code));
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (ended !== undefined) throw new Error(`gnd exited (code ${ended})`);
    try {
      const res = await fetch(statusUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ indexingStatuses { subgraph node } }" }), signal: AbortSignal.timeout(2_000) });
      const body = (await res.json()) as { data?: { indexingStatuses?: { subgraph: string; node: string | null }[] } };
      // A deployment is listed before gnd dev commits its assignment; naming it in that window makes graph-node
      // insert a second assignment row (duplicate key on subgraph_deployment_assignment). Wait for the node.
      const assigned = (body.data?.indexingStatuses ?? []).filter((s) => s.node !== null).map((s) => s.subgraph);
      if (assigned.length >= count) return assigned;
      last = `${assigned.length} of ${count} deployments listed and assigned`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the status API did not list ${count} deployment(s) within ${timeoutMs} ms (${last})`);
}

/** Seconds gnd has to stop after SIGINT (it ignores SIGTERM) before its lifeline kills it. */
const GND_STOP_GRACE_SECONDS = 2;

/** Cuts the lifeline: the shell sends gnd SIGINT, then SIGKILL after the grace, and exits with it. */
async function stopGnd(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  cutLifeline(child);
  await exited;
}

/** An admin JSON-RPC answer: its result, or its error's code and message. */
export type AdminAnswer = { result: unknown } | { error: { code: number | null; message: string } };

/**
 * One call to a graph-node admin API (port 8020), on a fresh connection: gnd's admin server drops idle
 * keep-alive sockets, and a reused one fails.
 */
export async function callAdmin(adminUrl: string, method: string, params: Record<string, unknown>): Promise<AdminAnswer> {
  const res = await fetch(adminUrl, {
    method: "POST",
    headers: { "content-type": "application/json", connection: "close" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await res.json()) as { result?: unknown; error?: { code?: number; message?: string } };
  return body.error ? { error: { code: body.error.code ?? null, message: body.error.message ?? "" } } : { result: body.result ?? null };
}

/** Gives a deployment a subgraph name through the admin API (`subgraph_create` then `subgraph_deploy`). */
export async function nameDeployment(adminUrl: string, name: string, deploymentId: string): Promise<void> {
  const created = await callAdmin(adminUrl, "subgraph_create", { name });
  if ("error" in created && !/exists/i.test(created.error.message)) throw new GraphNodeError(`subgraph_create ${name} failed: ${created.error.message}`, { code: "GND_ADMIN" });
  // gnd dev lists a deployment in its status API a moment before its admin API can find it.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const deployed = await callAdmin(adminUrl, "subgraph_deploy", { name, ipfs_hash: deploymentId });
    if (!("error" in deployed)) return;
    if (!/deployment not found/.test(deployed.error.message) || Date.now() > deadline) {
      throw new GraphNodeError(`subgraph_deploy ${name} failed: ${deployed.error.message}`, { code: "GND_ADMIN" });
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
