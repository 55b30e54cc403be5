import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cacheKey, isFresh, recordKey } from "./cache.js";
import { collectImportGraph } from "./importGraph.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "runner-cache-"));
  mkdirSync(join(dir, "tests"), { recursive: true });
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, "node_modules", "matchstick-as"), { recursive: true });
  writeFileSync(join(dir, "node_modules", "matchstick-as", "package.json"), '{"version":"0.6.0"}');
  writeFileSync(join(dir, "tests", "a.test.ts"), 'import { test } from "matchstick-as/assembly/index";\nimport { h } from "../src/mapping";\nimport { u } from "./utils";\n');
  writeFileSync(join(dir, "tests", "utils.ts"), 'export { x } from "../src/lib";\n');
  writeFileSync(join(dir, "src", "mapping.ts"), "export function h(): void {}\n");
  writeFileSync(join(dir, "src", "lib.ts"), "export const x = 1;\n");
  writeFileSync(join(dir, "src", "unrelated.ts"), "export const y = 1;\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const key = (version = "0.19.23"): string =>
  cacheKey({ root: dir, libsFolder: join(dir, "node_modules"), entry: join(dir, "tests", "a.test.ts"), compilerVersion: version, flags: ["--optimize"] });

describe("import graph and cache key", () => {
  it("follows relative imports transitively and lists packages", () => {
    const graph = collectImportGraph(join(dir, "tests", "a.test.ts"));
    expect(graph.files.map((f) => f.slice(dir.length + 1)).sort()).toEqual(["src/lib.ts", "src/mapping.ts", "tests/a.test.ts", "tests/utils.ts"]);
    expect(graph.packages).toEqual(["matchstick-as"]);
  });

  it("changes when the file or anything it imports changes, not otherwise", () => {
    const first = key();
    expect(key()).toBe(first);
    writeFileSync(join(dir, "src", "unrelated.ts"), "export const y = 2;\n");
    expect(key()).toBe(first);
    writeFileSync(join(dir, "src", "lib.ts"), "export const x = 2;\n");
    const second = key();
    expect(second).not.toBe(first);
    writeFileSync(join(dir, "node_modules", "matchstick-as", "package.json"), '{"version":"0.6.1"}');
    expect(key()).not.toBe(second);
    expect(key("0.19.10")).not.toBe(key("0.19.23"));
  });

  it("is fresh only for the recorded key with the wasm present", () => {
    const wasm = join(dir, "tests", ".bin", "a.wasm");
    expect(isFresh(wasm, "k")).toBe(false);
    mkdirSync(join(dir, "tests", ".bin"));
    writeFileSync(wasm, "");
    recordKey(wasm, "k");
    expect(isFresh(wasm, "k")).toBe(true);
    expect(isFresh(wasm, "other")).toBe(false);
  });
});
