// The Matchstick test files a save touches: those that import a changed mapping file (directly), and
// every test file when the schema, an ABI or the manifest changed (the generated types they use did).
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";

/** Test files (`tests/**\/*.test.ts`, relative to the tests folder) affected by `changed` (relative to `dir`). */
export async function affectedTests(dir: string, changed: string[]): Promise<string[]> {
  const testsDir = join(dir, "tests");
  let entries: string[];
  try {
    entries = await readdir(testsDir, { recursive: true });
  } catch {
    return [];
  }
  const tests = entries.filter((e) => e.endsWith(".test.ts") && !e.split("/").includes(".bin")).sort();
  if (changed.some((file) => !file.startsWith("src/"))) return tests;
  const changedPaths = new Set(changed.map((file) => resolve(dir, file)));
  const out: string[] = [];
  for (const test of tests) {
    const path = join(testsDir, test);
    const text = await readFile(path, "utf8");
    const imports = [...text.matchAll(/from\s+["'](\.{1,2}\/[^"']+)["']/g)].map((m) => resolve(dirname(path), m[1] ?? ""));
    if (imports.some((spec) => changedPaths.has(spec) || changedPaths.has(`${spec}.ts`))) out.push(test);
  }
  return out;
}

/** The runner's pattern for one test file: a regex prefix of its path in the tests folder. */
export function testPattern(dir: string, testFile: string): string {
  return relative(join(dir, "tests"), join(dir, "tests", testFile)).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
