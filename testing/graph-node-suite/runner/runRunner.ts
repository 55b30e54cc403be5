// graph-node's runner tests on one engine: each test's blocks served by the workbench's mock JSON-RPC
// chain (gnd-test's mockRpc), its subgraph built with gnd and deployed to a fresh engine on that chain
// (the local node through `gnd create`/`gnd deploy`, graph-node as `gnd dev` on its build), then the
// test's assertions once the engine reached the chain's head or failed.
import { copyFile, cp, readFile, writeFile, access } from "node:fs/promises";
import { join } from "node:path";
import Mustache from "mustache";
import { startMockRpc } from "subgraph-workbench/gnd-test";
import { nameDeployment, startGraphNodeEngine } from "subgraph-workbench/graph-node";
import { createIpfsServer, createIpfsStore, createLocalNode } from "subgraph-workbench/local-node";
import type { EmbeddedPostgres } from "subgraph-workbench/lib/embedded-postgres";
import { AssertionFailed } from "../expect.js";
import { gndBuild, gndCodegen, gndCreateAndDeploy } from "../gndCommands.js";
import { PATCHED_MANIFEST } from "../manifest.js";
import type { CaseResult } from "../runIntegration.js";
import { postGraphql, waitForHead, waitReady } from "../status.js";
import type { Toolchain } from "../toolchain.js";
import type { EngineLabel } from "../engines.js";
import { runnerChain } from "./mockBlocks.js";
import type { RunnerCase, RunnerContext } from "./types.js";

export interface RunRunnerOptions {
  engine: EngineLabel;
  cases: RunnerCase[];
  runnerTestsDir: string;
  workDir: string;
  tool: Toolchain;
  /** graph-node's server (a fresh database per test); unused by the local node. */
  postgres?: EmbeddedPostgres;
  readyTimeoutMs: number;
  log: (line: string) => void;
}

interface Deployed {
  name: string;
  queryUrl: string;
  statusUrl: string;
  close(): Promise<void>;
}

export async function runRunnerCases(options: RunRunnerOptions): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of options.cases) {
    const started = Date.now();
    const result = await runOne(c, options);
    const done: CaseResult = { ...result, seconds: (Date.now() - started) / 1000 };
    options.log(`${options.engine}: runner ${c.name}: ${done.verdict}${done.failure ? ` - ${done.failure.split("\n")[0]}` : ""} (${done.seconds.toFixed(1)} s)`);
    results.push(done);
  }
  return results;
}

async function prepareFolder(c: RunnerCase, options: RunRunnerOptions): Promise<string> {
  const dir = join(options.workDir, c.name);
  await cp(join(options.runnerTestsDir, c.folder), dir, { recursive: true });
  await options.tool.linkDependencies(dir);
  if (c.render) {
    // The deploy script's `mustache <data> <template> > <manifest>`.
    const rendered = Mustache.render(await readFile(join(dir, c.render.template), "utf8"), JSON.parse(await readFile(join(dir, c.render.data), "utf8")) as object);
    await writeFile(join(dir, c.manifest), rendered);
  }
  await copyFile(join(dir, c.manifest), join(dir, PATCHED_MANIFEST));
  // gnd dev finds `build/subgraph.yaml` beside a manifest named subgraph.yaml.
  if (!(await access(join(dir, "subgraph.yaml")).then(() => true, () => false))) await copyFile(join(dir, c.manifest), join(dir, "subgraph.yaml"));
  return dir;
}

async function runOne(c: RunnerCase, options: RunRunnerOptions): Promise<Omit<CaseResult, "seconds">> {
  const base = { case: `runner: ${c.name}`, engine: options.engine };
  const chain = runnerChain(c.blocks);
  const mock = await startMockRpc(chain);
  let deployed: Deployed | undefined;
  try {
    const dir = await prepareFolder(c, options);
    const name = `test/${c.name.replace(/_/g, "-")}`;
    try {
      deployed = options.engine === "local" ? await deployLocal(dir, name, mock.url, options) : await deployGraphNode(dir, name, mock.url, options, c.env ?? {});
    } catch (error) {
      return { ...base, verdict: "fail", failure: `Deploy failed: ${message(error)}` };
    }
    const target = deployed;
    let subgraph;
    try {
      subgraph = await waitReady(target.statusUrl, target.name, options.readyTimeoutMs);
      await waitForHead(target.statusUrl, subgraph.deployment, chain.block(chain.head)?.hash ?? "", options.readyTimeoutMs);
    } catch (error) {
      return { ...base, verdict: "fail", failure: message(error) };
    }
    const deployment = subgraph.deployment;
    const ctx: RunnerContext = {
      subgraph,
      query: (text) => postGraphql(target.queryUrl, text),
      status: (text, variables) => postGraphql(target.statusUrl, text, variables),
      async reorgTo(blocks) {
        chain.switchTo(blocks);
        await waitForHead(target.statusUrl, deployment, chain.block(chain.head)?.hash ?? "", options.readyTimeoutMs);
      },
    };
    try {
      await c.test(ctx);
      return { ...base, verdict: "pass", deployment: subgraph.deployment, ...(c.omitted ? { reason: `left out: ${c.omitted}` } : {}) };
    } catch (error) {
      return { ...base, verdict: "fail", failure: error instanceof AssertionFailed ? error.message : `test error: ${message(error)}`, deployment: subgraph.deployment };
    }
  } finally {
    await deployed?.close();
    await mock.close();
  }
}

async function deployLocal(dir: string, name: string, chainUrl: string, options: RunRunnerOptions): Promise<Deployed> {
  const node = await createLocalNode({ ethereumRpc: [`test:${chainUrl}`], ports: { query: 0, admin: 0, ipfs: 0, status: 0 }, pollIntervalMs: 100, log: process.env.GRAPH_NODE_SUITE_LOG ? (line) => options.log(`local node log: ${line}`) : () => undefined });
  try {
    await gndCodegen(options.tool, dir, node.urls.ipfs);
    await gndCreateAndDeploy(options.tool, dir, name, node.urls.admin, node.urls.ipfs);
  } catch (error) {
    await node.close();
    throw error;
  }
  return { name, queryUrl: `${node.urls.query}/subgraphs/name/${name}`, statusUrl: `${node.urls.status}/graphql`, close: () => node.close() };
}

async function deployGraphNode(dir: string, name: string, chainUrl: string, options: RunRunnerOptions, env: Record<string, string>): Promise<Deployed> {
  const ipfs = await createIpfsServer({ ipfs: await createIpfsStore({}), port: 0 });
  try {
    await gndCodegen(options.tool, dir, ipfs.url);
    await gndBuild(options.tool, dir);
    const gnd = await startGraphNodeEngine({
      manifests: [join(dir, "subgraph.yaml")],
      networks: [{ name: "test", url: chainUrl }],
      ipfs: new URL(ipfs.url).host,
      ports: { query: 0, admin: 0, status: 0, metrics: 0 },
      ...(options.postgres ? { postgres: { url: options.postgres.url } } : {}),
      resetDatabase: true,
      env: { ETHEREUM_POLLING_INTERVAL: "200", ...env },
      ...(process.env.GRAPH_NODE_SUITE_LOG ? { onLog: (line: string) => options.log(`graph-node log: ${line}`) } : {}),
    });
    await nameDeployment(gnd.urls.admin, name, gnd.deployments[0] ?? "").catch(async (error: unknown) => {
      await gnd.close();
      throw error;
    });
    return { name, queryUrl: `${gnd.urls.query}/subgraphs/name/${name}`, statusUrl: gnd.urls.status, close: async () => (await gnd.close(), await ipfs.close()) };
  } catch (error) {
    await ipfs.close();
    throw error;
  }
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 3000);
}
