// The two engines the suite runs on. Each deploys a case (and the subgraphs it names first) the way it
// takes deployments, and answers where to query it:
// - the local node: one node for the whole run, as graph-node's harness runs one graph-node; every case
//   is created and deployed through its admin API by `gnd create`/`gnd deploy`, as the harness does;
// - graph-node: `gnd dev` (graph-node 0.45 from npm, through the EDR adapter), one process per case on a
//   fresh database, indexing the case's gnd build. It takes no IPFS deployments, so a graft goes through
//   its admin API with the build manifest's path (`--manifests` drops `graft`), and `kind: subgraph`
//   sources are given with `--sources <hash>:<manifest>`, the hash being the source build's on IPFS.
import { join } from "node:path";
import { startGraphNodeEngine, nameDeployment, type GraphNodeEngine } from "subgraph-workbench/graph-node";
import { startThrowawayPostgres, type EmbeddedPostgres } from "subgraph-workbench/lib/embedded-postgres";
import { createIpfsServer, createIpfsStore, createLocalNode, type LocalNode } from "subgraph-workbench/local-node";
import type { RunningServer } from "subgraph-workbench/lib/http";
import { gndBuild, gndCodegen, gndCreateAndDeploy } from "./gndCommands.js";
import { writePatchedManifest } from "./manifest.js";
import { waitReady } from "./status.js";
import type { Toolchain } from "./toolchain.js";
import type { DeployedContract } from "./contracts.js";
import type { IntegrationCase } from "./types.js";

export type EngineLabel = "local" | "graph-node";

export interface DeployedCase {
  name: string;
  queryUrl: string;
  statusUrl: string;
  close(): Promise<void>;
}

export interface SuiteEngine {
  label: EngineLabel;
  /** Deploys the case's sources (waiting for each), then the case; `dirOf` names a case's work folder. */
  deployCase(c: IntegrationCase, dirOf: (name: string) => string): Promise<DeployedCase>;
  close(): Promise<void>;
}

export interface EngineContext {
  chainUrl: string;
  tool: Toolchain;
  contracts: DeployedContract[];
  readyTimeoutMs: number;
  log: (line: string) => void;
}

export async function startLocalSuiteEngine(ctx: EngineContext): Promise<SuiteEngine> {
  const node: LocalNode = await createLocalNode({
    ethereumRpc: [`test:${ctx.chainUrl}`],
    ports: { query: 0, admin: 0, ipfs: 0, status: 0 },
    pollIntervalMs: 100,
    // graph-node's harness runs with ETHEREUM_REORG_THRESHOLD=0 (tests/src/config.rs): a graft onto a base a
    // few blocks ahead is refused under the default threshold of 250.
    history: { reorgThreshold: 0 },
    log: process.env.GRAPH_NODE_SUITE_LOG ? (line) => ctx.log(`local node log: ${line}`) : () => undefined,
  });
  const statusUrl = `${node.urls.status}/graphql`;
  const deploy = async (dir: string, name: string, sources: [string, string][]) => {
    await writePatchedManifest(dir, ctx.contracts, sources);
    await gndCodegen(ctx.tool, dir, node.urls.ipfs);
    await gndCreateAndDeploy(ctx.tool, dir, name, node.urls.admin, node.urls.ipfs);
  };
  return {
    label: "local",
    async deployCase(c, dirOf) {
      const sources: [string, string][] = [];
      for (const s of c.sources ?? []) {
        await deploy(dirOf(s.case), `test/${s.case}`, []);
        const ready = await waitReady(statusUrl, `test/${s.case}`, ctx.readyTimeoutMs);
        ctx.log(`local: source ${s.case} ready as ${ready.deployment}`);
        sources.push([s.case, ready.deployment]);
      }
      await deploy(dirOf(c.name), `test/${c.name}`, sources);
      return { name: `test/${c.name}`, queryUrl: `${node.urls.query}/subgraphs/name/test/${c.name}`, statusUrl, close: async () => undefined };
    },
    close: () => node.close(),
  };
}

export async function startGraphNodeSuiteEngine(ctx: EngineContext): Promise<SuiteEngine> {
  const postgres: EmbeddedPostgres = await startThrowawayPostgres();
  let ipfs: RunningServer | undefined;
  try {
    ipfs = await createIpfsServer({ ipfs: await createIpfsStore({}), port: 0 });
  } catch (error) {
    await postgres.stop();
    throw error;
  }
  const ipfsUrl = ipfs.url;
  const env = {
    // What graph-node's harness sets (tests/src/config.rs), and a quick head poll.
    GRAPH_STORE_WRITE_BATCH_DURATION: "5",
    ETHEREUM_REORG_THRESHOLD: "0",
    ETHEREUM_POLLING_INTERVAL: "200",
  };
  const start = (manifests: string[], sources: { alias: string; manifest: string }[] = []) =>
    startGraphNodeEngine({
      manifests,
      sources,
      networks: [{ name: "test", url: ctx.chainUrl }],
      ipfs: new URL(ipfsUrl).host,
      ports: { query: 0, admin: 0, status: 0, metrics: 0 },
      postgres: { url: postgres.url },
      resetDatabase: true,
      env,
      ...(process.env.GRAPH_NODE_SUITE_LOG ? { onLog: (line: string) => ctx.log(`graph-node log: ${line}`) } : {}),
    });
  const build = async (dir: string, sources: [string, string][], upload = false) => {
    await writePatchedManifest(dir, ctx.contracts, sources);
    await gndCodegen(ctx.tool, dir, ipfsUrl);
    return gndBuild(ctx.tool, dir, upload ? ipfsUrl : undefined);
  };
  return {
    label: "graph-node",
    async deployCase(c, dirOf) {
      const name = `test/${c.name}`;
      const dir = dirOf(c.name);
      let gnd: GraphNodeEngine | undefined;
      try {
        const graft = c.sources?.find((s) => s.kind === "graft");
        if (graft) {
          await build(dirOf(graft.case), []);
          gnd = await start([devManifest(dirOf(graft.case))]);
          await nameDeployment(gnd.urls.admin, `test/${graft.case}`, gnd.deployments[0] ?? "");
          const base = await waitReady(gnd.urls.status, `test/${graft.case}`, ctx.readyTimeoutMs);
          ctx.log(`graph-node: graft base ${graft.case} ready as ${base.deployment}`);
          const built = await build(dir, [[graft.case, base.deployment]]);
          await nameDeployment(gnd.urls.admin, name, built.buildManifest);
        } else {
          const aliases: { alias: string; manifest: string }[] = [];
          for (const s of c.sources ?? []) {
            const built = await build(dirOf(s.case), [], true);
            if (!built.hash) throw new Error(`gnd build --ipfs printed no hash for ${s.case}`);
            aliases.push({ alias: built.hash, manifest: devManifest(dirOf(s.case)) });
          }
          await build(dir, (c.sources ?? []).map((s, i) => [s.case, aliases[i]?.alias ?? ""]));
          gnd = await start([devManifest(dir)], aliases);
          await nameDeployment(gnd.urls.admin, name, gnd.deployments[0] ?? "");
        }
      } catch (error) {
        await gnd?.close();
        throw error;
      }
      const running = gnd;
      return { name, queryUrl: `${running.urls.query}/subgraphs/name/${name}`, statusUrl: running.urls.status, close: () => running.close() };
    },
    async close() {
      await ipfs?.close();
      await postgres.stop();
    },
  };
}

/** What gnd dev is given for a case: it reads `build/<the manifest's file name>`, and gnd build writes `build/subgraph.yaml`. */
function devManifest(caseDir: string): string {
  return join(caseDir, "subgraph.yaml");
}
