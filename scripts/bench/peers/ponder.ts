// Ponder's side of the peer bench: the pinned release, installed on first use from ponder-app's committed
// lock file into a scratch folder (never by the project's npm ci), the workload's app sources laid in, then
// `ponder start` on its embedded PGlite, timed from its process start to /ready and from its own log.
import { cp, rm } from "node:fs/promises";
import { join } from "node:path";
import { freePort } from "subgraph-workbench/lib/freePort";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import { ponderBackfillSeconds, ponderErrors, ponderServerPort } from "./ponderLog.js";
import type { EngineFigure } from "./report.js";
import { runDetached, settledPhase, waitUntil, type EngineRun, type EngineOptions } from "./engineRun.js";
import { cleanEnv, installPeerApp, type PeerApp } from "./peerApp.js";
import type { PeerChain, Row, Workload } from "./workload.js";
import { watchTree } from "./treeUsage.js";

export const PONDER_VERSION = "0.16.10";
/** How far below the head Ponder 0.16 takes blocks as final on a chain it does not know (31337 among them). */
export const PONDER_FINALITY_BLOCKS = 30;
const appSource = join(projectRoot, "scripts", "bench", "peers", "ponder-app");
const appDir = join(projectRoot, "node_modules", ".cache", "bench-peers", `ponder-${PONDER_VERSION}`);
/** What a workload lays into the install (anything else there is the install's own). */
const appFiles = ["ponder.config.ts", "ponder.schema.ts", "src"];

const app: PeerApp = {
  label: `Ponder ${PONDER_VERSION}`,
  sourceDir: appSource,
  installDir: appDir,
  installedMarker: join("node_modules", "ponder", "package.json"),
};

/** Installs the pinned app once (again when its lock file changed), then lays the workload's sources and ABI in. */
export async function preparePonderApp(workload: Workload, log: (line: string) => void): Promise<void> {
  await installPeerApp(app, log);
  // The previous workload's sources must not stay behind beside this one's.
  for (const file of appFiles) await rm(join(appDir, file), { recursive: true, force: true });
  for (const file of appFiles) await cp(join(workload.ponder.sourceDir, file), join(appDir, file), { recursive: true });
  await cp(join(appSource, "api"), join(appDir, "src", "api"), { recursive: true });
  for (const [name, from] of Object.entries(workload.ponder.extraFiles())) await cp(from, join(appDir, name));
}

/** `ponder start` from a fresh database; returns its figure and every row, read through its GraphQL. */
export async function runPonder(chain: PeerChain, workload: Workload, options: EngineOptions): Promise<EngineRun> {
  await preparePonderApp(workload, options.log);
  // Ponder keeps its PGlite and its RPC cache in .ponder: a cold run starts without them.
  await rm(join(appDir, ".ponder"), { recursive: true, force: true });
  const port = await freePort();
  const env = cleanEnv();
  delete env.DATABASE_URL;
  delete env.DATABASE_SCHEMA;
  const started = Date.now();
  const proc = runDetached(process.execPath, [join(appDir, "node_modules", "ponder", "dist", "esm", "bin", "ponder.js"), "start", "--schema", "bench", "--log-format", "json", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: appDir,
    // Ponder reports usage to its makers unless told not to: nothing here leaves 127.0.0.1.
    env: { ...env, PONDER_TELEMETRY_DISABLED: "true", BENCH_RPC_URL: chain.rpcUrl, BENCH_CHAIN_ID: String(chain.chainId), BENCH_ADDRESS: chain.address, BENCH_START_BLOCK: String(chain.startBlock) },
  });
  const tree = watchTree(proc.pid, { ponder: () => true });
  try {
    options.log("Ponder: started `ponder start`; waiting for /ready");
    // /ready answers 200 once the backfill is done; /status then names the last block indexed. Ponder moves
    // to the next port when the one asked for was taken meanwhile: its log says which it took.
    let url = "";
    let last = "no HTTP server yet";
    const indexed = async () => {
      const taken = ponderServerPort(proc.output());
      if (taken === null) return false;
      url = `http://127.0.0.1:${taken}`;
      const ready = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(2_000) });
      last = `/ready answered ${ready.status}`;
      if (ready.status !== 200) return false;
      const status = await (await fetch(`${url}/status`, { signal: AbortSignal.timeout(2_000) })).text();
      last = `/status answered ${status.slice(0, 300)}`;
      return ((JSON.parse(status) as Record<string, { block?: { number?: number } }>).localhost?.block?.number ?? -1) >= chain.lastEventBlock;
    };
    await waitUntil(() => indexed().catch((error: unknown) => ((last = String(error)), false)), {
      timeoutMs: options.timeoutMs,
      what: `Ponder to answer /ready and index block ${chain.lastEventBlock}, the last event's`,
      ended: proc.ended,
      output: () => [`last answer: ${last}`, ...ponderErrors(proc.output()), proc.output().slice(-1500)].join("\n"),
    });
    const coldSeconds = (Date.now() - started) / 1000;
    const settled = await tree.settle("ponder");
    const usage = tree.stop().ponder!;
    const indexingSeconds = ponderBackfillSeconds(proc.output());
    const rows = await readPonderRows(`${url}/graphql`, workload);
    const figure: EngineFigure = {
      engine: "ponder",
      events: chain.events,
      indexingSeconds,
      coldSeconds,
      cpuSeconds: usage.cpuSeconds,
      peakMiB: usage.peakMiB,
      phases: [
        { label: "build and start-up", seconds: coldSeconds - indexingSeconds },
        { label: "backfill", seconds: indexingSeconds },
        settledPhase(settled),
      ],
      parts: [],
      processes: usage.processes,
    };
    return { figure, rows, output: proc.output() };
  } finally {
    tree.stop();
    await proc.stop();
  }
}

/** Every row through Ponder's GraphQL, 1,000 a page by its cursor, in id order. */
async function readPonderRows(graphqlUrl: string, workload: Workload): Promise<Row[]> {
  const { collection } = workload.ponder;
  const fields = ["id", ...workload.shape.fields.map((f) => f.name)].join(" ");
  const rows: Row[] = [];
  let after: string | null = null;
  for (;;) {
    const res = await fetch(graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `query($after: String) { ${collection}(limit: 1000, orderBy: "id", orderDirection: "asc", after: $after) { items { ${fields} } pageInfo { hasNextPage endCursor } } }`,
        variables: { after },
      }),
    });
    type Page = { items: Row[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
    const body = (await res.json()) as { data?: Record<string, Page>; errors?: { message: string }[] };
    const page = body.data?.[collection];
    if (body.errors?.length || !page) throw new Error(`Ponder's GraphQL failed: ${JSON.stringify(body.errors ?? body)}`);
    rows.push(...page.items);
    if (!page.pageInfo.hasNextPage) return rows;
    after = page.pageInfo.endCursor;
  }
}
