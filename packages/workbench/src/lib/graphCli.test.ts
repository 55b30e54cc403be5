import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { runGraphCli } from "./graphCli.js";
import { createWarmGraphCli } from "./warmGraphCli.js";

// oclif's update check runs in a detached process a moment after a command starts, when the cache's
// version file is missing or a day old. Here the cache is new and the "registry" is a local server that
// counts what it is asked: without the check turned off, both see it within about a second.
const CHECK_STARTS_WITHIN_MS = 3_000;

let cacheDir = "";
let registry: Server;
const asked: string[] = [];
const saved = { cache: process.env.GRAPH_CACHE_DIR, registry: process.env.GRAPH_NPM_REGISTRY };

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), "graph-cli-cache-"));
  registry = createServer((req, res) => {
    asked.push(req.url ?? "");
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  // graph-cli's own variables: its cache folder and the registry its update check asks.
  process.env.GRAPH_CACHE_DIR = cacheDir;
  process.env.GRAPH_NPM_REGISTRY = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  for (const [name, value] of [["GRAPH_CACHE_DIR", saved.cache], ["GRAPH_NPM_REGISTRY", saved.registry]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await new Promise((resolve) => registry.close(resolve));
  await rm(cacheDir, { recursive: true, force: true });
});

describe("graph-cli as the project runs it", () => {
  it("never asks the npm registry for a newer graph-cli, fresh or warm", async () => {
    const fresh = await runGraphCli(["--version"]);
    expect(fresh.code).toBe(0);
    const warm = createWarmGraphCli();
    try {
      expect((await warm.run(["--version"], { cwd: cacheDir })).code).toBe(0);
    } finally {
      await warm.close();
    }
    await new Promise((resolve) => setTimeout(resolve, CHECK_STARTS_WITHIN_MS));
    expect(asked).toEqual([]);
    // The check writes this file before it asks.
    expect(existsSync(join(cacheDir, "version"))).toBe(false);
  });
});
