// The workspace's import graph, read from the sources: every relative import, re-export and dynamic
// import of every TypeScript file, resolved to the file it names, and every import of a workspace package
// by name (`subgraph-workbench/local-node`), resolved through its package.json `exports` to the source
// file its entry is compiled from. architecture.test.ts checks the layering rules over it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";

export interface ImportEdge {
  /** Importing file, relative to the root, with / separators. */
  from: string;
  /** Imported file, relative to the root. */
  to: string;
  /** `import type` / `export type`: erased at run time, but still an arrow between modules. */
  typeOnly: boolean;
  /** Written as a package name (`subgraph-workbench/...`), not as a relative path. */
  byName: boolean;
}

/** A workspace package: its name, its folder (relative to the root) and its `exports` map. */
export interface WorkspacePackage {
  name: string;
  dir: string;
  exports: Record<string, string | { default?: string }>;
}

const importPattern = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

export function listSourceFiles(root: string, folders: string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "artifacts" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".as.ts") && !entry.name.endsWith(".d.ts")) files.push(toPosix(relative(root, path)));
    }
  };
  for (const folder of folders) {
    try {
      if (statSync(join(root, folder)).isDirectory()) walk(join(root, folder));
    } catch {
      // A folder that does not exist has no imports.
    }
  }
  return files.sort();
}

export function readImportGraph(root: string, files: string[], packages: WorkspacePackage[] = []): ImportEdge[] {
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const text = readFileSync(join(root, from), "utf8");
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[3] ?? match[4];
      if (!specifier) continue;
      const typeOnly = Boolean(match[2]);
      if (specifier.startsWith(".")) {
        const to = resolveSpecifier(from, specifier, known);
        if (to) edges.push({ from, to, typeOnly, byName: false });
        continue;
      }
      const to = resolvePackageEntry(specifier, packages, known);
      if (to) edges.push({ from, to, typeOnly, byName: true });
    }
  }
  return edges;
}

/**
 * The source file behind a package-name import: the `exports` entry it matches (exactly, or a `*`
 * pattern), with `dist/x.js` read as `src/x.ts`. Undefined for other packages and for no entry.
 */
export function resolvePackageEntry(specifier: string, packages: WorkspacePackage[], known: Set<string>): string | undefined {
  const pkg = packages.find((p) => specifier === p.name || specifier.startsWith(`${p.name}/`));
  if (!pkg) return undefined;
  const subpath = `.${specifier.slice(pkg.name.length)}`;
  const target = (key: string, star?: string) => {
    const entry = pkg.exports[key];
    const file = typeof entry === "string" ? entry : entry?.default;
    return file && (star === undefined ? file : file.replace("*", star));
  };
  let file = target(subpath);
  if (!file) {
    const pattern = Object.keys(pkg.exports).find((k) => k.includes("*") && subpath.startsWith(k.slice(0, k.indexOf("*"))));
    if (pattern) file = target(pattern, subpath.slice(pattern.indexOf("*")));
  }
  if (!file) return undefined;
  const source = toPosix(normalize(join(pkg.dir, file.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"))));
  return known.has(source) ? source : undefined;
}

function resolveSpecifier(from: string, specifier: string, known: Set<string>): string | undefined {
  const target = toPosix(normalize(join(dirname(from), specifier)));
  const candidates = [target.replace(/\.js$/, ".ts"), `${target}.ts`, `${target}/index.ts`, target];
  return candidates.find((c) => known.has(c));
}

function toPosix(path: string): string {
  return path.split(sep).join("/");
}

/** Every cycle among the files, each reported once as the list of files around it. */
export function findCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)?.add(to);
  }
  // Tarjan's strongly connected components: any component with more than one file is a cycle.
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    order.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!order.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, order.get(target) ?? 0));
      }
    }
    if (low.get(node) === order.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || next.get(node)?.has(node)) cycles.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!order.has(node)) visit(node);
  return cycles;
}
