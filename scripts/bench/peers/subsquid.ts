// Subsquid's side of the peer bench: a squid laid out as the SDK's EVM template (subsquid-app/<workload>/),
// its pinned release installed on first use into the bench's cache, then what `sqd process` runs on a fresh
// clone, each step timed: the models from schema.graphql (squid-typeorm-codegen) and the ABIs' facades
// (squid-evm-typegen), tsc, `squid-typeorm-migration apply`, and `node lib/main.js` on a fresh embedded
// PostgreSQL (what `sqd up` starts in Docker), until its metrics name the last event's block.
import { spawn } from "node:child_process";
import { cp, realpath, rm } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { startThrowawayPostgres, type EmbeddedPostgres } from "subgraph-workbench/lib/embedded-postgres";
import { freePort } from "subgraph-workbench/lib/freePort";
import type { ProcessMemory } from "subgraph-workbench/lib/processTreeMemory";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import { runDetached, settledPhase, waitUntil, type EngineRun, type EngineOptions } from "./engineRun.js";
import { cleanEnv, installPeerApp, type PeerApp } from "./peerApp.js";
import { PONDER_FINALITY_BLOCKS } from "./ponder.js";
import type { PeerChain, Row, Workload, WorkloadSubsquidApp } from "./workload.js";
import { subsquidErrors, subsquidIndexingStart, subsquidLastBlock, subsquidLastProgress } from "./subsquidLog.js";
import { watchTree, type TreeWatch } from "./treeUsage.js";

/** The release of @subsquid/evm-processor the app pins (its other @subsquid packages: see its package.json). */
export const SUBSQUID_VERSION = "1.27.3";
const app: PeerApp = {
  label: `Subsquid (@subsquid/evm-processor ${SUBSQUID_VERSION})`,
  sourceDir: join(projectRoot, "scripts", "bench", "peers", "subsquid-app"),
  installDir: join(projectRoot, "node_modules", ".cache", "bench-peers", `subsquid-${SUBSQUID_VERSION}`),
  installedMarker: join("node_modules", "@subsquid", "evm-processor", "package.json"),
};
/** What a workload lays into the install, beside the app's own tsconfig.json. */
const workloadFiles = ["schema.graphql", "src", "db"];
/** What the steps generate or compile: removed before each run, so that each run does them all. */
const generated = ["lib", "abi"];
const DATABASE = "squid";

// `node lib/main.js` as the tree lists it (each argument's last two path segments).
const isProcessor = (p: ProcessMemory) => p.command === "node lib/main.js";
// The postmaster ("postgres -D ...") and its backends and workers ("postgres: ..."); not initdb's
// single-user runs (`postgres --boot`, `--single`, `--check`), which end before the squid starts.
const isPostgres = (p: ProcessMemory) => /^postgres(:| -D )/.test(p.command);

/**
 * Installs the pinned app once, then lays the workload's squid and ABIs in, with nothing of the last run's
 * (another workload's sources, or what codegen, typegen and tsc made).
 */
async function prepareSubsquidApp(squid: WorkloadSubsquidApp, log: (line: string) => void): Promise<void> {
  await installPeerApp(app, log);
  for (const path of [...generated, ...workloadFiles]) await rm(join(app.installDir, path), { recursive: true, force: true });
  await cp(join(app.sourceDir, "tsconfig.json"), join(app.installDir, "tsconfig.json"));
  for (const file of workloadFiles) await cp(join(squid.sourceDir, file), join(app.installDir, file), { recursive: true });
  for (const [name, from] of Object.entries(squid.abis())) await cp(from, join(app.installDir, "abi", name));
}

/** One of the squid's command-line tools, from the app's node_modules/.bin, on this Node; throws with its output. */
async function runTool(bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const script = await realpath(join(app.installDir, "node_modules", ".bin", bin));
  const { code, text } = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: app.installDir, env, stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (c: Buffer) => (text += c.toString()));
    child.stderr.on("data", (c: Buffer) => (text += c.toString()));
    child.on("error", reject);
    child.on("exit", (exitCode) => resolve({ code: exitCode, text }));
  });
  if (code !== 0) throw new Error(`Subsquid: \`${[bin, ...args].join(" ")}\` failed (exit ${code}):\n${text.trim().split("\n").slice(-20).join("\n")}`);
}

export async function runSubsquid(chain: PeerChain, workload: Workload, options: EngineOptions): Promise<EngineRun> {
  const squid = workload.subsquid;
  if (!squid) throw new Error(`Subsquid has no squid for the ${workload.name} workload (scripts/bench/peers/subsquid-app/${workload.name}/)`);
  await prepareSubsquidApp(squid, options.log);
  let tree: TreeWatch | undefined;
  let postgres: EmbeddedPostgres | undefined;
  let proc: ReturnType<typeof runDetached> | undefined;
  const started = Date.now();
  const marks: { label: string; at: number }[] = [];
  const mark = (label: string) => marks.push({ label, at: Date.now() });
  try {
    postgres = await startThrowawayPostgres();
    await createDatabase(postgres.url);
    mark("Postgres start-up");
    // The processor and its Postgres are this process's children (beside Hardhat): watched by name, from
    // here, so that the bench's own session creating the database is left out.
    tree = watchTree(process.pid, { total: (p) => isProcessor(p) || isPostgres(p), processor: isProcessor, postgres: isPostgres }, 100);
    const metricsPort = await freePort();
    // typeorm-store and the migration tool read the database from DB_* (the template's .env).
    const env: NodeJS.ProcessEnv = {
      ...cleanEnv(),
      DB_HOST: "127.0.0.1",
      DB_PORT: String(postgres.port),
      DB_NAME: DATABASE,
      DB_USER: "postgres",
      DB_PASS: "postgres",
      RPC_ETH_HTTP: chain.rpcUrl,
      BENCH_ADDRESS: chain.address,
      BENCH_START_BLOCK: String(chain.startBlock),
      // The empty blocks the bench mines on top for Ponder: Subsquid takes as many to confirm finality.
      BENCH_FINALITY_BLOCKS: String(PONDER_FINALITY_BLOCKS),
      // Its Prometheus server (it binds every interface; only the bench asks it) tells what it committed.
      PROMETHEUS_PORT: String(metricsPort),
    };
    delete env.DB_URL;
    delete env.DB_SCHEMA;
    options.log("Subsquid: codegen and typegen, tsc, migration apply, then `node lib/main.js`");
    await runTool("squid-typeorm-codegen", [], env);
    await runTool("squid-evm-typegen", ["src/abi", ...Object.keys(squid.abis()).map((name) => `abi/${name}`)], env);
    mark("codegen + typegen");
    await runTool("tsc", [], env);
    mark("build (tsc)");
    await runTool("squid-typeorm-migration", ["apply"], env);
    mark("migration apply");
    const running = runDetached(process.execPath, [join(app.installDir, "lib", "main.js")], { cwd: app.installDir, env });
    proc = running;
    // Its metrics, not a session of ours on its Postgres: the bench's reads stay out of its figures.
    let last = "no metrics server yet";
    const committed = async () => {
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics/sqd_processor_last_block`, { signal: AbortSignal.timeout(2_000) });
      const height = subsquidLastBlock(await res.text());
      last = `sqd_processor_last_block ${height ?? `absent (HTTP ${res.status})`}`;
      return height !== null && height >= chain.lastEventBlock;
    };
    await waitUntil(() => committed().catch((error: unknown) => ((last = String(error)), false)), {
      timeoutMs: options.timeoutMs,
      what: `the Subsquid processor to index block ${chain.lastEventBlock}, the last event's`,
      ended: running.ended,
      output: () => [`last reading: ${last}`, ...subsquidErrors(running.output()), running.output().slice(-1500)].join("\n"),
    });
    const synced = Date.now();
    const settled = await tree.settle("total");
    const usage = tree.stop();
    const indexingFrom = subsquidIndexingStart(running.output());
    const rows = await readSubsquidRows(databaseUrl(postgres.url), squid.table, workload);
    const s = (from: number, to: number) => (to - from) / 1000;
    const part = (label: "processor" | "postgres") => ({ label, peakMiB: usage[label]!.peakMiB, cpuSeconds: usage[label]!.cpuSeconds });
    const phases = marks.map((m, i) => ({ label: m.label, seconds: s(i === 0 ? started : marks[i - 1]!.at, m.at) }));
    const processorFrom = marks.at(-1)!.at;
    options.log(`Subsquid: its last progress line: ${subsquidLastProgress(running.output()) ?? "(none)"}`);
    return {
      figure: {
        engine: "subsquid",
        events: chain.events,
        indexingSeconds: s(indexingFrom, synced),
        coldSeconds: s(started, synced),
        cpuSeconds: usage.total!.cpuSeconds,
        peakMiB: usage.total!.peakMiB,
        phases: [
          ...phases,
          { label: "processor start-up", seconds: s(processorFrom, indexingFrom) },
          { label: "processing to the last event's block (its metrics)", seconds: s(indexingFrom, synced) },
          settledPhase(settled),
        ],
        parts: [part("processor"), part("postgres")],
        processes: usage.total!.processes,
      },
      rows,
      output: running.output(),
    };
  } finally {
    tree?.stop();
    await proc?.stop();
    await postgres?.stop();
  }
}

function databaseUrl(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

/** The template's database (its docker-compose creates it with POSTGRES_DB). */
async function createDatabase(serverUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Every row of the workload's table, each field under its schema name. typeorm-store names columns in
 * snake_case (`sqrtPriceX96` → `sqrt_price_x96`): a field is the column that is its name once the
 * underscores are dropped. pg hands numeric and int8 columns back as decimal text.
 */
async function readSubsquidRows(url: string, table: string, workload: Workload): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<Record<string, unknown>>(`select * from ${client.escapeIdentifier(table)}`);
    const columnOf = new Map(result.fields.map((f) => [f.name.replaceAll("_", ""), f.name]));
    const names = ["id", ...workload.shape.fields.map((f) => f.name)];
    const columns = names.map((name) => {
      const column = columnOf.get(name.toLowerCase());
      if (!column) throw new Error(`Subsquid's table ${table} has no column for ${name} (columns: ${result.fields.map((f) => f.name).join(", ")})`);
      return [name, column] as const;
    });
    return result.rows.map((r) => Object.fromEntries(columns.map(([name, column]) => [name, r[column]])) as Row);
  } finally {
    await client.end().catch(() => undefined);
  }
}
