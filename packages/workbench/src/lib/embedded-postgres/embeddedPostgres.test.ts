// The embedded PostgreSQL server against the real binaries from npm: what graph-node needs (C collation,
// its extensions, a URL with a password), and the failures a user meets (a taken port, a second server on
// the same data, a stale pid file, a foreign folder, a killed owner).
import { spawn } from "node:child_process";
import { mkdtemp, mkdir, readFile, rm, writeFile, chmod } from "node:fs/promises";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDatabase, findPostgresBinaries, startEmbeddedPostgres, startThrowawayPostgres, sweepAbandonedClusters, type EmbeddedPostgres } from "./index.js";
import { findAccount } from "./unprivilegedUser.js";
import { isAlive } from "./server.js";

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pg-test-"));
  await chmod(dir, 0o755); // As root the server runs as 'nobody', which must reach folders inside.
  return dir;
}

describe("a throwaway embedded PostgreSQL server", () => {
  let server: EmbeddedPostgres;
  beforeAll(async () => {
    server = await startThrowawayPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("is a real PostgreSQL 17 on loopback with C collation and a password in its URL", async () => {
    expect(server.url).toMatch(/^postgresql:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    const [row] = await query<{ version: string; datcollate: string; encoding: string }>(
      server.url,
      "select version(), datcollate, pg_encoding_to_char(encoding) as encoding from pg_database where datname = 'postgres'",
    );
    expect(row?.version).toMatch(/^PostgreSQL 17\./);
    expect(row?.datcollate).toBe("C");
    expect(row?.encoding).toBe("UTF8");
  });

  it("has the extensions graph-node creates", async () => {
    await query(server.url, "create extension if not exists pg_trgm; create extension if not exists btree_gist; create extension if not exists postgres_fdw");
    const rows = await query<{ extname: string }>(server.url, "select extname from pg_extension order by extname");
    expect(rows.map((r) => r.extname)).toEqual(expect.arrayContaining(["btree_gist", "pg_trgm", "postgres_fdw"]));
  });

  it("creates C-collated databases on demand, once", async () => {
    const url = await ensureDatabase(server.url, "graph_node_test");
    expect(await ensureDatabase(server.url, "graph_node_test")).toBe(url);
    const [row] = await query<{ current_database: string; collate: string }>(url, "select current_database(), datcollate as collate from pg_database where datname = current_database()");
    expect(row).toEqual({ current_database: "graph_node_test", collate: "C" });
    await expect(ensureDatabase(server.url, "Robert'); drop")).rejects.toThrow(/invalid database name/);
  });

  it("removes its data folder on stop", async () => {
    const other = await startThrowawayPostgres();
    const dataDir = other.dataDir;
    expect(existsSync(dataDir)).toBe(true);
    await other.stop();
    await other.stop(); // Idempotent.
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe("an embedded server on a data folder of the user's", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await scratchDir();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps its data across restarts", async () => {
    const dataDir = join(dir, "kept");
    const first = await startEmbeddedPostgres({ dataDir });
    await query(first.url, "create table kept (n int); insert into kept values (42)");
    await first.stop();
    const second = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await query(second.url, "select n from kept")).toEqual([{ n: 42 }]);
    } finally {
      await second.stop();
    }
  });

  it("refuses a second server on the same folder, naming the running one", async () => {
    const dataDir = join(dir, "busy");
    const first = await startEmbeddedPostgres({ dataDir });
    try {
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toMatchObject({ code: "EMBEDDED_POSTGRES_IN_USE", message: expect.stringMatching(/already running on .*busy/) });
    } finally {
      await first.stop();
    }
  });

  it("starts over a pid file left by a killed server", async () => {
    const dataDir = join(dir, "killed");
    const first = await startEmbeddedPostgres({ dataDir });
    const pid = Number((await readFile(join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
    process.kill(pid, "SIGKILL");
    await first.stop();
    expect(existsSync(join(dataDir, "postmaster.pid"))).toBe(true);
    const second = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await query(second.url, "select 1 as one")).toEqual([{ one: 1 }]);
    } finally {
      await second.stop();
    }
  });

  it("names a taken port instead of hanging", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startEmbeddedPostgres({ dataDir: join(dir, "port"), port })).rejects.toMatchObject({
        code: "EMBEDDED_POSTGRES_PORT_IN_USE",
        message: `port ${port} on 127.0.0.1 is taken: stop what listens there or choose another port`,
      });
    } finally {
      blocker.close();
    }
  });

  it("refuses a folder that holds something else", async () => {
    const dataDir = join(dir, "foreign");
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, "notes.txt"), "mine");
    await expect(startEmbeddedPostgres({ dataDir })).rejects.toMatchObject({ code: "EMBEDDED_POSTGRES_BAD_DATA_DIR" });
    expect(await readFile(join(dataDir, "notes.txt"), "utf8")).toBe("mine");
  });
});

describe("cleanup after a killed owner", () => {
  it("stops the server when its owning process is SIGKILLed", async () => {
    const script = fileURLToPath(new URL("./_test/ownThrowawayServer.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: ["ignore", "pipe", "inherit"] });
    const dataDir = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (text: string) => {
        const match = /^ready (.+)$/m.exec(text);
        if (match?.[1]) resolve(match[1]);
      });
      child.once("exit", (code) => reject(new Error(`the owner exited early (code ${code})`)));
    });
    const pid = Number((await readFile(join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
    expect(isAlive(pid)).toBe(true);
    child.kill("SIGKILL");
    const deadline = Date.now() + 20_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(pid)).toBe(false);
    // The next start sweeps the folder the dead owner left.
    expect(existsSync(dataDir)).toBe(true);
    await sweepAbandonedClusters();
    expect(existsSync(dataDir)).toBe(false);
  });

  it("leaves alone a process that took the pid a killed server's pid file names", async () => {
    const root = await mkdtemp(join(tmpdir(), "embedded-postgres-run-"));
    await writeFile(join(root, "owner.pid"), "2147483646"); // No such process.
    const bystander = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await mkdir(join(root, "data"));
      await writeFile(join(root, "data", "postmaster.pid"), `${bystander.pid}\n${join(root, "data")}\n`);
      expect(await sweepAbandonedClusters()).toBeGreaterThanOrEqual(1);
      expect(existsSync(root)).toBe(false);
      expect(isAlive(bystander.pid!)).toBe(true);
    } finally {
      bystander.kill("SIGKILL");
    }
  });

  it("sweeps a live server whose owner is gone", async () => {
    const root = await mkdtemp(join(tmpdir(), "embedded-postgres-run-"));
    await chmod(root, 0o755);
    await writeFile(join(root, "owner.pid"), "2147483646"); // No such process.
    const server = await startEmbeddedPostgres({ dataDir: join(root, "data"), durable: false });
    const pid = Number((await readFile(join(root, "data", "postmaster.pid"), "utf8")).split("\n")[0]);
    expect(await sweepAbandonedClusters()).toBeGreaterThanOrEqual(1);
    expect(existsSync(root)).toBe(false);
    const deadline = Date.now() + 20_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(pid)).toBe(false);
    await server.stop();
  });
});

describe("platforms and accounts", () => {
  it("says to set DATABASE_URL on a platform with no binary package", async () => {
    await expect(findPostgresBinaries("sunos", "sparc")).rejects.toMatchObject({
      code: "EMBEDDED_POSTGRES_UNSUPPORTED_PLATFORM",
      message: expect.stringContaining("set DATABASE_URL"),
    });
  });

  it("finds the unprivileged account root runs the server as", () => {
    const passwd = "root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";
    expect(findAccount(passwd, "nobody")).toEqual({ name: "nobody", uid: 65534, gid: 65534 });
    expect(findAccount("root:x:0:0::/root:/bin/sh", "nobody")).toBeUndefined();
  });
});
