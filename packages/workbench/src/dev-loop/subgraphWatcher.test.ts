import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSubgraphWatcher, type SubgraphWatcher } from "./subgraphWatcher.js";
import { affectedTests, testPattern } from "./affectedTests.js";

let dir: string;
let watcher: SubgraphWatcher | null = null;
let saves: number[] = [];

/** Resolves once `count` saves have been reported (the deadline is the test's). */
async function saved(count: number): Promise<void> {
  while (saves.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "watcher-"));
  await mkdir(join(dir, "src"));
  await mkdir(join(dir, "abis"));
  await mkdir(join(dir, "node_modules"));
  await writeFile(join(dir, "subgraph.yaml"), "specVersion: 0.0.5\n");
  await writeFile(join(dir, "schema.graphql"), "type A @entity(immutable: true) { id: ID! }\n");
  await writeFile(join(dir, "src", "mapping.ts"), "export function a(): void {}\n");
  saves = [];
  watcher = await createSubgraphWatcher({ dir, debounceMs: 30, onSave: (at) => saves.push(at) });
});

afterEach(async () => {
  watcher?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("createSubgraphWatcher", () => {
  it("reports a save once the writes are quiet, and tells changes by content", async () => {
    const before = Date.now();
    await writeFile(join(dir, "src", "mapping.ts"), "export function b(): void {}\n");
    await saved(1);
    expect(saves[0]).toBeGreaterThanOrEqual(before);
    expect(await watcher!.takeChanges()).toEqual(["src/mapping.ts"]);
    // The same text again is a save that changes nothing.
    await writeFile(join(dir, "src", "mapping.ts"), "export function b(): void {}\n");
    await saved(2);
    expect(await watcher!.takeChanges()).toEqual([]);
  });

  it("keeps watching a file an editor replaced, sees new folders, and ignores what is not a source", async () => {
    await writeFile(join(dir, "tmp"), "export function c(): void {}\n");
    await rename(join(dir, "tmp"), join(dir, "src", "mapping.ts"));
    await saved(1);
    await writeFile(join(dir, "src", "mapping.ts"), "export function d(): void {}\n");
    await saved(2);
    await mkdir(join(dir, "src", "lib"));
    await saved(3);
    await writeFile(join(dir, "src", "lib", "util.ts"), "export const x = 1;\n");
    await saved(4);
    await writeFile(join(dir, "node_modules", "x.js"), "1");
    await writeFile(join(dir, "schema.graphql"), "type B @entity(immutable: true) { id: ID! }\n");
    await saved(5);
    expect(await watcher!.takeChanges()).toEqual(["schema.graphql", "src/lib/util.ts", "src/mapping.ts"]);
  });

  it("takes graph-cli's own rewrite of subgraph.yaml as the base after rebase", async () => {
    await writeFile(join(dir, "subgraph.yaml"), "specVersion: 0.0.5\n# rewritten\n");
    await watcher!.rebase(["subgraph.yaml"]);
    expect(await watcher!.peekChanges()).toEqual([]);
  });
});

describe("affectedTests", () => {
  it("picks the test files that import a changed mapping, and all of them on a schema change", async () => {
    await mkdir(join(dir, "tests", "nested"), { recursive: true });
    await writeFile(join(dir, "tests", "a.test.ts"), 'import { a } from "../src/mapping";\n');
    await writeFile(join(dir, "tests", "nested", "b.test.ts"), 'import { x } from "../../src/lib/util";\n');
    await writeFile(join(dir, "tests", "helpers.ts"), 'import { a } from "../src/mapping";\n');
    expect(await affectedTests(dir, ["src/mapping.ts"])).toEqual(["a.test.ts"]);
    expect(await affectedTests(dir, ["src/lib/util.ts"])).toEqual(["nested/b.test.ts"]);
    expect(await affectedTests(dir, ["schema.graphql"])).toEqual(["a.test.ts", "nested/b.test.ts"]);
    expect(testPattern(dir, "a.test.ts")).toBe("a\\.test\\.ts");
  });
});
