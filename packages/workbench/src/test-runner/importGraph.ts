// The files a test file depends on, for the compile cache: its relative imports, followed
// recursively (like Matchstick's import scan, but by content hash rather than mtime), plus the
// versions of the packages it imports from node_modules.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

export interface ImportGraph {
  /** Absolute paths of the project files (the entry included), in discovery order. */
  files: string[];
  /** Bare package specifiers' package names (e.g. `@graphprotocol/graph-ts`, `matchstick-as`). */
  packages: string[];
}

// `import ... from "x"`, `export ... from "x"`, `import "x"`; comments are not stripped, which can only
// add files to the graph (a spurious recompile, never a stale cache).
const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"'\n]+)["']/g;

function resolveRelative(fromFile: string, spec: string): string | null {
  const base = resolve(dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, resolve(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function packageName(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? spec);
}

export function collectImportGraph(entry: string): ImportGraph {
  const files: string[] = [];
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [resolve(entry)];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    files.push(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT_RE)) {
      const spec = match[1] as string;
      if (spec.startsWith(".")) {
        const target = resolveRelative(file, spec);
        if (target && !seen.has(target)) queue.push(target);
      } else {
        packages.add(packageName(spec));
      }
    }
  }
  return { files, packages: [...packages].sort() };
}
