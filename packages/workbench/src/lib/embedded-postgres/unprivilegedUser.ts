// PostgreSQL refuses to run as root (initdb and postgres both check). When this process is root, the
// server runs as an existing unprivileged account instead, through spawn's uid/gid: no user is created.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, cp, mkdir, stat, rename, rm } from "node:fs/promises";
import { dirname, join, parse } from "node:path";
import { tmpdir } from "node:os";
import { EmbeddedPostgresError } from "./errors.js";
import type { PostgresBinaries } from "./binaries.js";

export interface RunAs {
  uid: number;
  gid: number;
  name: string;
}

/** The account the server runs as: undefined (this process's own) unless this process is root. */
export function serverAccount(passwdText?: string): RunAs | undefined {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return undefined;
  const account = findAccount(passwdText ?? readPasswd(), "nobody");
  if (!account) {
    throw new EmbeddedPostgresError("running as root, and PostgreSQL refuses root: no unprivileged account 'nobody' exists to run it as. Run as a normal user, or set DATABASE_URL", {
      code: "EMBEDDED_POSTGRES_ROOT",
    });
  }
  return account;
}

export function findAccount(passwdText: string, name: string): RunAs | undefined {
  for (const line of passwdText.split("\n")) {
    const [user, , uid, gid] = line.split(":");
    if (user === name && uid !== undefined && gid !== undefined) return { name, uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

function readPasswd(): string {
  try {
    return readFileSync("/etc/passwd", "utf8");
  } catch {
    return "";
  }
}

/**
 * The account must be able to execute the binaries. A project under a private home folder (root's
 * /root is mode 700) hides them, so a copy goes to a world-readable folder under the OS temp dir,
 * once per package version.
 */
export async function binariesReachableBy(binaries: PostgresBinaries, runAs: RunAs | undefined): Promise<PostgresBinaries> {
  if (!runAs || canExecute(binaries.initdb, runAs)) return binaries;
  const shared = join(tmpdir(), `embedded-postgres-${binaries.version}-${process.arch}`);
  const nativeDir = join(shared, "native");
  const copy = { ...binaries, nativeDir, initdb: join(nativeDir, "bin", "initdb"), postgres: join(nativeDir, "bin", "postgres") };
  if (canExecute(copy.initdb, runAs)) return copy;
  // Copy beside the final place, then rename: a concurrent start never sees half a copy.
  const staging = `${shared}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  await cp(binaries.nativeDir, join(staging, "native"), { recursive: true, verbatimSymlinks: true });
  await chmod(staging, 0o755);
  await rm(shared, { recursive: true, force: true });
  await rename(staging, shared);
  if (!canExecute(copy.initdb, runAs)) {
    throw new EmbeddedPostgresError(`the account '${runAs.name}' cannot run the PostgreSQL binaries, even copied to ${shared}`, { code: "EMBEDDED_POSTGRES_ROOT" });
  }
  return copy;
}

function canExecute(binary: string, runAs: RunAs): boolean {
  const result = spawnSync(binary, ["--version"], { uid: runAs.uid, gid: runAs.gid, stdio: "ignore", timeout: 10_000 });
  return result.status === 0;
}

/** Every folder above `dir` must be searchable by the account, or the server cannot reach its data. */
export async function assertReachable(dir: string, runAs: RunAs): Promise<void> {
  const { root } = parse(dir);
  for (let current = dirname(dir); ; current = dirname(current)) {
    const info = await stat(current);
    const searchable = info.uid === runAs.uid ? (info.mode & 0o100) !== 0 : info.gid === runAs.gid ? (info.mode & 0o010) !== 0 : (info.mode & 0o001) !== 0;
    if (!searchable) {
      throw new EmbeddedPostgresError(
        `running as root, PostgreSQL runs as '${runAs.name}', which cannot reach ${dir}: ${current} is not searchable by others. Choose a data folder under a searchable path, or run as a normal user`,
        { code: "EMBEDDED_POSTGRES_ROOT", details: { dir, blockedAt: current } },
      );
    }
    if (current === root) return;
  }
}
