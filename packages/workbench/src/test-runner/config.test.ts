import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveConfig } from "./config.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "runner-config-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("resolveConfig", () => {
  it("uses Matchstick's defaults without matchstick.yaml", () => {
    const config = resolveConfig(dir);
    expect(config.testsFolder).toBe(join(dir, "tests"));
    expect(config.libsFolder).toBe(join(dir, "node_modules"));
    expect(config.manifestPath).toBe(join(dir, "subgraph.yaml"));
  });

  it("reads testsFolder, libsFolder and manifestPath, keeping defaults for missing keys", () => {
    writeFileSync(join(dir, "matchstick.yaml"), "testsFolder: ./specs\nmanifestPath: sub/subgraph.yaml\n");
    const config = resolveConfig(dir);
    expect(config.testsFolder).toBe(join(dir, "specs"));
    expect(config.manifestPath).toBe(join(dir, "sub/subgraph.yaml"));
    expect(config.libsFolder).toBe(join(dir, "node_modules"));
  });

  it("treats an empty matchstick.yaml as defaults", () => {
    writeFileSync(join(dir, "matchstick.yaml"), "");
    expect(resolveConfig(dir).testsFolder).toBe(join(dir, "tests"));
  });
});
