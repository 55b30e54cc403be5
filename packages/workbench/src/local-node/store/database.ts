// One small database interface over PGlite (embedded; a data dir or in-memory) and pg (a Postgres
// server via DATABASE_URL), so the store's SQL is the same for both.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { collectGarbage } from "../../lib/collectGarbage.js";
import { cacheFolder, packageRoot } from "../../lib/packageRoot.js";
import { StoreError, maskDatabaseUrl } from "./errors.js";

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Several statements, no parameters. */
  exec(sql: string): Promise<void>;
  /**
   * `copy <table> (<columns>) from '/dev/blob'` with `rows` as the blob (COPY's text format as a string,
   * or bytes for `with (format binary)`), where the database reads one: PGlite. Bulk inserts go faster
   * than through `unnest` of text arrays.
   */
  copyFrom?(sql: string, rows: string | Uint8Array<ArrayBuffer>): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction; rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  /**
   * Idempotent DDL a new PGlite data folder starts with: run once into the folder's template (one
   * per PGlite version and SQL), so that a new store skips creating its tables (half a second here).
   */
  schemaSql?: string;
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? createPgDatabase(options.databaseUrl) : createPgliteDatabase(options.dataDir, options.schemaSql ?? "");
}

/**
 * PGlite's shared_buffers (Postgres units): its buffer pool lives in the process's memory, and Postgres
 * touches all of it at start. PGlite's default, 128MB, is most of an idle node's memory; pages past
 * the pool stay in the OS page cache (PGlite's files), so a small pool costs little speed here: 16MB
 * against 32MB indexed 100,000 approvals as fast, 35-45 MiB lower at the peak, and answered the query
 * latency bench alike at 100,000 and 300,000 entities, in memory and in a data folder (docs/benchmarks.md).
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS = "16MB";

/** LOCAL_NODE_PGLITE_SHARED_BUFFERS, as Postgres writes sizes (`16MB`, `1GB`, `2048kB`). */
export function pgliteSharedBuffers(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.LOCAL_NODE_PGLITE_SHARED_BUFFERS?.trim() || DEFAULT_PGLITE_SHARED_BUFFERS;
  if (!/^\d+(kB|MB|GB)$/.test(value)) throw new StoreError(`LOCAL_NODE_PGLITE_SHARED_BUFFERS must be a size such as 16MB or 1GB, got ${JSON.stringify(value)}`);
  return value;
}

async function createPgliteDatabase(dataDir: string | undefined, schemaSql: string): Promise<Database> {
  // PGlite creates only the last directory of the path.
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });
  const options = { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${pgliteSharedBuffers()}`] };
  if (dataDir !== undefined && !existsSync(join(dataDir, "PG_VERSION"))) await createDataFolder(dataDir, { ...options, schemaSql });
  const db = dataDir === undefined ? await PGlite.create(options) : await PGlite.create(dataDir, options);
  if (dataDir === undefined) {
    // In memory: the throwaway is collected once its close (which PGlite does not await) has ended.
    await new Promise((resolve) => setTimeout(resolve, 20));
    collectGarbage();
  }
  const wrap = (q: { query: PGlite["query"]; exec: PGlite["exec"] }): Queryable => ({
    async query<T extends Row>(sql: string, params?: unknown[]) {
      try {
        return (await q.query<T>(sql, params ?? [])).rows;
      } catch (error) {
        throw sqlError(error, sql);
      }
    },
    async copyFrom(sql: string, rows: string | Uint8Array<ArrayBuffer>) {
      try {
        await q.query(sql, [], { blob: new Blob([rows]) });
      } catch (error) {
        throw sqlError(error, sql);
      }
    },
    async exec(sql: string) {
      try {
        await q.exec(sql);
      } catch (error) {
        throw sqlError(error, sql);
      }
    },
  });
  const root = wrap(db);
  return {
    kind: "pglite",
    ...root,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: () => db.close(),
  };
}

async function createPgDatabase(url: string): Promise<Database> {
  // Parse bigint/numeric as strings (pg's default) and keep bytea as Buffer; the SQL casts what it reads.
  // A connection that cannot be had within 30 s is an error (the indexer retries and says so), not a silent wait.
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 30_000 });
  pool.on("error", () => {
    // An idle client lost its connection; the pool replaces it. Queries report their own errors.
  });
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StoreError(`cannot connect to Postgres at ${maskDatabaseUrl(url)}`, { cause: error });
  }
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T extends Row>(sql: string, params?: unknown[]) {
      try {
        return (await q.query(sql, params ?? [])).rows as T[];
      } catch (error) {
        throw sqlError(error, sql);
      }
    },
    async exec(sql: string) {
      try {
        await q.query(sql);
      } catch (error) {
        throw sqlError(error, sql);
      }
    },
  });
  return {
    kind: "postgres",
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await fn(wrap(client));
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * A fresh PGlite data folder, copied from a pristine one per PGlite version and schema SQL (39 MB): the
 * one the package's build made and ships (dist/pglite-templates), else one made here once, in
 * node_modules/.cache. PGlite's own initdb runs in a second, throwaway PGlite and peaks at about 700 MB,
 * of which the C allocator keeps about 100 MB after they are freed; it also takes 2-3 s where the copy
 * takes a tenth of that. Made at build time, no user's first start pays for it.
 */
async function createDataFolder(dataDir: string, options: { startParams: string[]; schemaSql: string }): Promise<void> {
  const name = await pgliteTemplateName(options.schemaSql);
  const shipped = join(SHIPPED_TEMPLATES, name);
  if (existsSync(join(shipped, "PG_VERSION"))) {
    await cp(shipped, dataDir, { recursive: true });
    // The package's tarball dropped the template's empty folders; its build listed them.
    const emptyFolders = JSON.parse(await readFile(`${shipped}.empty-folders.json`, "utf8")) as string[];
    for (const folder of emptyFolders) await mkdir(join(dataDir, folder), { recursive: true });
    return;
  }
  const template = await createPgliteTemplate(cacheFolder("local-node"), options);
  await cp(template, dataDir, { recursive: true });
}

/** Where the package's build puts the pristine folders it ships. */
const SHIPPED_TEMPLATES = join(packageRoot, "dist", "pglite-templates");

const pgliteEntry = () => createRequire(import.meta.url).resolve("@electric-sql/pglite");

/** A pristine folder's name: the PGlite release and the schema SQL it holds. */
async function pgliteTemplateName(schemaSql: string): Promise<string> {
  const { version } = JSON.parse(await readFile(join(dirname(pgliteEntry()), "..", "package.json"), "utf8")) as { version: string };
  const schema = schemaSql ? `-${createHash("sha256").update(schemaSql).digest("hex").slice(0, 12)}` : "";
  return `pglite-${version}${schema}-data`;
}

/** Makes the pristine PGlite folder for `schemaSql` in `folder` (unless one is there); answers its path. */
export async function createPgliteTemplate(folder: string, options: { startParams?: string[]; schemaSql: string }): Promise<string> {
  const template = join(folder, await pgliteTemplateName(options.schemaSql));
  if (existsSync(join(template, "PG_VERSION"))) return template;
  await mkdir(folder, { recursive: true });
  const scratch = await mkdtemp(`${template}-`);
  try {
    await initdbApart(pgliteEntry(), scratch, { startParams: options.startParams ?? PGlite.defaultStartParams, schemaSql: options.schemaSql });
    // Another node may have made it meanwhile: then its copy stays, and this one goes.
    await rename(scratch, template).catch(() => undefined);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return template;
}

/**
 * Creates a PGlite data folder (initdb, then the schema SQL) in a child process (PGlite's entry point
 * `pglite`), so that its memory ends with it.
 */
async function initdbApart(pglite: string, dataDir: string, options: { startParams: string[]; schemaSql: string }): Promise<void> {
  const { schemaSql, ...pgliteOptions } = options;
  const script = `require(${JSON.stringify(pglite)}).PGlite.create(process.argv[1], JSON.parse(process.argv[2])).then(async (db) => { if (process.argv[3]) await db.exec(process.argv[3]); await db.close(); }).catch((e) => { console.error(e); process.exit(1); });`;
  const child = spawn(process.execPath, ["-e", script, dataDir, JSON.stringify(pgliteOptions), schemaSql], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => (child.once("error", reject), child.once("exit", resolve)));
  if (code !== 0) throw new StoreError(`could not create the PGlite database in ${dataDir}: ${stderr.trim().slice(-2000) || `exit code ${code}`}`);
}

function sqlError(error: unknown, sql: string): StoreError {
  if (error instanceof StoreError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // The drivers' errors carry every bound parameter (whole entity batches); keep only what explains it.
  const code = (error as { code?: unknown } | null)?.code;
  const cause = Object.assign(new Error(message), typeof code === "string" ? { code } : {});
  return new StoreError(`database error: ${message}`, { cause, details: { sql: sql.slice(0, 500), ...(typeof code === "string" ? { code } : {}) } });
}
