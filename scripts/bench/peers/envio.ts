// Envio HyperIndex's side of the peer bench: the pinned release, installed on first use from the app's
// committed lock files into a scratch folder (never by the project's npm ci), then what a new user runs:
// `envio codegen` (writes and compiles ./generated) and `envio start`, over the chain's JSON-RPC only, on
// an embedded PostgreSQL with Hasura off. Timed from codegen to the chain's last event block in its own
// progress table; its rows are read back from Postgres (its GraphQL is Hasura's).
import { runToEnd } from "./peerApp.js";
import { existsSync, readFileSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, relative } from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "subgraph-workbench/lib/embedded-postgres";
import { freePort } from "subgraph-workbench/lib/freePort";
import type { ProcessMemory } from "subgraph-workbench/lib/processTreeMemory";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import { runDetached, settledPhase, waitUntil, type EngineRun, type EngineOptions } from "./engineRun.js";
import type { EngineFigure } from "./report.js";
import type { PeerChain, Row, Workload, WorkloadEnvioApp } from "./workload.js";
import { watchTree } from "./treeUsage.js";

export const ENVIO_VERSION = "2.32.12";
const appSource = join(projectRoot, "scripts", "bench", "peers", "envio-app");
const cacheDir = join(projectRoot, "node_modules", ".cache", "bench-peers", `envio-${ENVIO_VERSION}`);
const appDir = join(cacheDir, "app");
const pnpmDir = join(cacheDir, "pnpm");
/** pnpm's package store and metadata cache, kept in the bench's cache rather than the user's home. */
const pnpmStore = join(cacheDir, "pnpm-store");
const pnpmCache = join(cacheDir, "pnpm-cache");
/** What a workload lays into the install, beside the app's own tsconfig.json. */
const workloadFiles = ["config.yaml", "schema.graphql", "src"];
const isPostgres = (p: ProcessMemory) => /^postgres[: ]/.test(p.command);

/** npm's own variables from an `npm run` above us would point the installs at the project: drop them. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm|pnpm)_/i.test(k)));
  // The pinned pnpm first: `envio codegen` calls `pnpm`, and installs one globally when none answers.
  return { ...env, PATH: [join(pnpmDir, "node_modules", ".bin"), process.env.PATH ?? ""].join(delimiter) };
}

const lastLines = (text: string, n = 15) => text.trim().split("\n").slice(-n).join("\n");

/** The lock files the installed copy was made from, to install again when one changed. */
function lockStamp(): string {
  return ["pnpm/package-lock.json", "pnpm-lock.yaml", "package.json", "pnpm-workspace.yaml"].map((f) => readFileSync(join(appSource, f), "utf8")).join("\n");
}

/** The workspace root's settings, which pnpm reads in ./generated too (npm, running its start script, does not). */
async function writePnpmSettings(): Promise<void> {
  await writeFile(join(appDir, ".npmrc"), `store-dir=${pnpmStore}\ncache-dir=${pnpmCache}\n`);
}

/**
 * Installs pnpm and the app once (again when a lock file changed), then lays the workload's indexer and
 * ABIs in, with nothing of the last run's (another workload's sources, or the code codegen generated).
 */
async function prepareEnvioApp(indexer: WorkloadEnvioApp, log: (line: string) => void): Promise<void> {
  const stamp = lockStamp();
  const installed = await readFile(join(cacheDir, "installed.lock"), "utf8").catch(() => null);
  if (installed !== stamp || !existsSync(join(appDir, "node_modules", "envio", "package.json"))) {
    log(`installing Envio ${ENVIO_VERSION} into ${relative(projectRoot, cacheDir)}: npm ci (pnpm), then pnpm install --frozen-lockfile (once; later runs reuse it)`);
    await rm(cacheDir, { recursive: true, force: true });
    await mkdir(pnpmDir, { recursive: true });
    await mkdir(appDir, { recursive: true });
    for (const file of ["package.json", "package-lock.json"]) await cp(join(appSource, "pnpm", file), join(pnpmDir, file));
    for (const file of ["package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml"]) await cp(join(appSource, file), join(appDir, file));
    await writePnpmSettings();
    const env = cleanEnv();
    const steps: [string, string[], string][] = [
      ["npm", ["ci", "--no-audit", "--no-fund"], pnpmDir],
      ["pnpm", ["install", "--frozen-lockfile"], appDir],
    ];
    for (const [command, args, cwd] of steps) {
      const output = await runToEnd(command, args, cwd, env);
      // No stamp is written: a half-done install must not pass for a finished one next time.
      if (output.code !== 0) throw new Error(`installing Envio ${ENVIO_VERSION} failed (${command} ${args.join(" ")} in ${relative(projectRoot, cwd)}, exit ${output.code}):\n${lastLines(output.text)}`);
    }
    await writeFile(join(cacheDir, "installed.lock"), stamp);
  }
  await writePnpmSettings();
  // A cold run starts without the last run's generated code (codegen bakes the chain's config in).
  for (const path of ["generated", "abis", ...workloadFiles]) await rm(join(appDir, path), { recursive: true, force: true });
  await mkdir(join(appDir, "abis"));
  await cp(join(appSource, "tsconfig.json"), join(appDir, "tsconfig.json"));
  for (const file of workloadFiles) await cp(join(indexer.sourceDir, file), join(appDir, file), { recursive: true });
  for (const [name, from] of Object.entries(indexer.abis())) {
    // Envio reads a bare ABI array: an artifact's `abi` is taken out of it.
    const json = JSON.parse(await readFile(from, "utf8")) as unknown;
    await writeFile(join(appDir, "abis", name), JSON.stringify(Array.isArray(json) ? json : (json as { abi: unknown }).abi));
  }
}

/**
 * A predicate for processes below `root` (by their parents in /proc), remembered per pid: one sampler
 * then sums Envio's tree and the Postgres it writes to at the same instants, as graph-node's figure does.
 */
function descendantOf(root: number): (p: ProcessMemory) => boolean {
  const known = new Map<number, boolean>([[root, true]]);
  const parentOf = (pid: number): number | null => {
    try {
      // The command may hold spaces and parentheses: the parent follows the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      return null;
    }
  };
  const below = (pid: number): boolean => {
    const cached = known.get(pid);
    if (cached !== undefined) return cached;
    const parent = parentOf(pid);
    const result = parent !== null && parent > 1 && below(parent);
    known.set(pid, result);
    return result;
  };
  return (p) => below(p.pid);
}

/** `envio codegen` and `envio start` from a fresh database; returns its figure and every row, read from Postgres. */
export async function runEnvio(chain: PeerChain, workload: Workload, options: EngineOptions): Promise<EngineRun> {
  const indexer = workload.envio;
  if (!indexer) throw new Error(`Envio has no indexer for the ${workload.name} workload (scripts/bench/peers/envio-app/${workload.name}/)`);
  await prepareEnvioApp(indexer, options.log);
  const dataDir = await mkdtemp(join(tmpdir(), "bench-peers-envio-"));
  // Run as root, the embedded Postgres runs as 'nobody', which must reach its cluster inside.
  await chmod(dataDir, 0o755);
  const env = {
    ...cleanEnv(),
    ENVIO_BENCH_CHAIN_ID: String(chain.chainId),
    ENVIO_BENCH_START_BLOCK: String(chain.startBlock),
    ENVIO_BENCH_RPC_URL: chain.rpcUrl,
    ENVIO_BENCH_ADDRESS: chain.address,
  };
  const envio = join(appDir, "node_modules", "envio", "bin.js");
  let postgres: EmbeddedPostgres | undefined;
  let proc: ReturnType<typeof runDetached> | undefined;
  let client: pg.Client | undefined;
  const output: string[] = [];
  const started = Date.now();
  try {
    options.log("Envio: envio codegen (writes ./generated, pnpm install from its store, ReScript build)");
    const codegen = await runToEnd(process.execPath, [envio, "codegen"], appDir, env);
    output.push(codegen.text);
    if (codegen.code !== 0) throw new Error(`envio codegen failed (exit ${codegen.code}):\n${lastLines(codegen.text, 30)}`);
    // Codegen's own `pnpm install` in the workspace must have kept to the committed lock file.
    if ((await readFile(join(appDir, "pnpm-lock.yaml"), "utf8")) !== (await readFile(join(appSource, "pnpm-lock.yaml"), "utf8"))) {
      throw new Error(`envio codegen changed the app's pnpm-lock.yaml in ${relative(projectRoot, appDir)}: the generated package's dependencies are no longer those pinned in scripts/bench/peers/envio-app/pnpm-lock.yaml`);
    }
    const builtAt = Date.now();
    postgres = await startEmbeddedPostgres({ dataDir: join(dataDir, "postgres"), onLog: (line) => output.push(`postgres: ${line}`) });
    const postgresUp = Date.now();
    options.log("Envio: generated; Postgres up; started `envio start`, waiting for its progress block to reach the last event's");
    const port = await freePort();
    proc = runDetached(process.execPath, [envio, "start"], {
      cwd: appDir,
      env: {
        ...env,
        ENVIO_PG_HOST: "127.0.0.1",
        ENVIO_PG_PORT: String(postgres.port),
        ENVIO_PG_USER: "postgres",
        ENVIO_PG_PASSWORD: "postgres",
        ENVIO_PG_DATABASE: "postgres",
        ENVIO_HASURA: "false",
        // Its metrics and console server: a free port, not 9898.
        ENVIO_INDEXER_PORT: String(port),
        TUI_OFF: "true",
        LOG_STRATEGY: "console-raw",
        LOG_FILE: join(dataDir, "envio.log"),
      },
    });
    const envioTree = descendantOf(proc.pid);
    // The bench's own session, which polls Envio's progress and reads the rows, is left out of its figures.
    const session = new pg.Client({ connectionString: postgres.url });
    client = session;
    await session.connect();
    const benchBackend = (await session.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const envioPostgres = (p: ProcessMemory) => isPostgres(p) && p.pid !== benchBackend;
    // Envio's processes and its Postgres are this process's children (beside Hardhat).
    const tree = watchTree(process.pid, { total: (p) => envioTree(p) || envioPostgres(p), envio: envioTree, postgres: envioPostgres }, 50);
    try {
      let last = "no envio_chains table yet";
      let initialisedAt = 0;
      const synced = async () => {
        const res = await session.query<{ progress_block: number; events_processed: number }>("SELECT progress_block, events_processed FROM envio_chains WHERE id = $1", [Number(chain.chainId)]);
        const row = res.rows[0];
        if (!row) return false;
        if (!initialisedAt) initialisedAt = Date.now();
        last = `progress block ${row.progress_block}, ${row.events_processed} events processed`;
        return row.progress_block >= chain.lastEventBlock;
      };
      await waitUntil(() => synced().catch((error: unknown) => ((last = String(error)), false)), {
        timeoutMs: options.timeoutMs,
        what: `Envio's progress block (envio_chains) to reach block ${chain.lastEventBlock}, the last event's`,
        ended: proc.ended,
        output: () => [`last seen: ${last}`, lastLines(proc!.output(), 40)].join("\n"),
      });
      const syncedAt = Date.now();
      const settled = await tree.settle("total");
      const usage = tree.stop();
      const rows = await readEnvioRows(session, indexer.table, workload);
      const s = (from: number, to: number) => (to - from) / 1000;
      const part = (label: "envio" | "postgres") => ({ label, peakMiB: usage[label]!.peakMiB, cpuSeconds: usage[label]!.cpuSeconds });
      const figure: EngineFigure = {
        engine: "envio",
        events: chain.events,
        indexingSeconds: s(initialisedAt, syncedAt),
        coldSeconds: s(started, syncedAt),
        cpuSeconds: usage.total!.cpuSeconds,
        peakMiB: usage.total!.peakMiB,
        phases: [
          { label: "envio codegen", seconds: s(started, builtAt) },
          { label: "Postgres start-up", seconds: s(builtAt, postgresUp) },
          { label: "envio start to its chain row (migrations)", seconds: s(postgresUp, initialisedAt) },
          { label: "chain row to the last event's block", seconds: s(initialisedAt, syncedAt) },
          settledPhase(settled),
        ],
        parts: [part("envio"), part("postgres")],
        processes: usage.total!.processes,
      };
      return { figure, rows, output: [...output, proc.output()].join("\n") };
    } finally {
      tree.stop();
    }
  } finally {
    await client?.end().catch(() => undefined);
    await proc?.stop();
    await postgres?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Every row of the workload's entity table, its columns named as the schema's fields (pg hands numeric back as decimal text). */
async function readEnvioRows(client: pg.Client, table: string, workload: Workload): Promise<Row[]> {
  const names = ["id", ...workload.shape.fields.map((f) => f.name)];
  const res = await client.query<Row>(`SELECT ${names.map((n) => client.escapeIdentifier(n)).join(", ")} FROM ${client.escapeIdentifier(table)}`);
  return res.rows;
}
