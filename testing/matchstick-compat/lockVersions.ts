// The version a project's lockfile pins for a package, so that a public suite runs with the
// graph-ts, matchstick-as and graph-cli it was written for: package-lock.json (v1..v3), yarn.lock
// (classic and berry). Falls back to the range in package.json.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

function fromPackageLock(text: string, name: string): string | null {
  const lock = JSON.parse(text) as { packages?: Record<string, { version?: string }>; dependencies?: Record<string, { version?: string }> };
  return lock.packages?.[`node_modules/${name}`]?.version ?? lock.dependencies?.[name]?.version ?? null;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** yarn.lock: the first entry whose key names the package (`name@range`, `"name@npm:range"`), its `version`. */
function fromYarnLock(text: string, name: string): string | null {
  const entry = new RegExp(`^"?${escape(name)}@[^\\n]*:\\n((?:[ \\t]+[^\\n]*\\n)+)`, "m").exec(text);
  const version = entry === null ? null : /^\s+version:?\s+"?([^"\s]+)"?/m.exec(entry[1]!);
  return version?.[1] ?? null;
}

/** The lockfiles from `dir` up to `stopAt` (monorepos keep one at the top). */
export function lockedVersion(dir: string, stopAt: string, name: string): string | null {
  let current = dir;
  for (;;) {
    for (const [file, read] of [
      ["package-lock.json", fromPackageLock],
      ["yarn.lock", fromYarnLock],
    ] as const) {
      const path = join(current, file);
      if (!existsSync(path)) continue;
      try {
        const version = read(readFileSync(path, "utf8"), name);
        if (version !== null) return version;
      } catch {
        // an unreadable lockfile: try the next
      }
    }
    if (current === stopAt || current.length <= stopAt.length) return null;
    current = join(current, "..");
  }
}

/** The package.json range of a dependency (dependencies or devDependencies), or null. */
export function declaredRange(dir: string, name: string): string | null {
  const path = join(dir, "package.json");
  if (!existsSync(path)) return null;
  const pkg = JSON.parse(readFileSync(path, "utf8")) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  return pkg.dependencies?.[name] ?? pkg.devDependencies?.[name] ?? null;
}
