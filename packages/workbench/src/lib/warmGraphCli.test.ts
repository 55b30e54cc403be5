import { afterAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { createWarmGraphCli } from "./warmGraphCli.js";
import { buildSubgraph } from "./subgraphBuild.js";

const graph = createWarmGraphCli();
let empty: string | null = null;
const workDirs: string[] = [];

afterAll(async () => {
  await graph.close();
  if (empty) await rm(empty, { recursive: true, force: true });
  for (const dir of workDirs) await rm(dir, { recursive: true, force: true });
});

/** Every file under `dir`, by relative path, with its bytes. */
async function filesUnder(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(path.slice(dir.length + 1), await readFile(path));
  }
  return files;
}

describe("createWarmGraphCli", () => {
  it("runs graph-cli's commands one after another in one process, with each one's exit code and output", async () => {
    empty = await mkdtemp(join(tmpdir(), "warm-graph-cli-"));
    const [version, missing, again] = await Promise.all([
      graph.run(["--version"], { cwd: empty }),
      graph.run(["build", "nothing-here.yaml"], { cwd: empty }),
      graph.run(["--version"], { cwd: empty }),
    ]);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/@graphprotocol\/graph-cli\/0\.98\.1/);
    // A failing command ends with its own code and words; the process serves the next one.
    expect(missing.code).not.toBe(0);
    expect(missing.stdout).toMatch(/nothing-here\.yaml/);
    expect(again).toEqual(version);
  });

  it("starts a new process after close", async () => {
    await graph.close();
    const version = await graph.run(["--version"], { cwd: empty ?? tmpdir() });
    expect(version.code).toBe(0);
  });

  it("keeps the process referenced while it ends: a CLI whose last await is close() exits 0, not 13 (unsettled top-level await)", () => {
    const script = join(import.meta.dirname, "_test", "warmGraphCliCloseLast.ts");
    const run = spawnSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", timeout: 120_000 });
    expect(run.stderr).not.toMatch(/unsettled top-level await/);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/closed after exit code 0/);
  });

  it("builds the same files as the unmodified graph-cli in a fresh process (binaryen's WebAssembly build against its JavaScript one)", async () => {
    const target = { address: "0x5FbDB2315678afecb367f032d93F642f64180aa3", startBlock: 7 };
    const fresh = await buildSubgraph(target);
    const warm = await buildSubgraph({ ...target, runner: graph.runner });
    workDirs.push(fresh.workDir, warm.workDir);
    const [expected, actual] = await Promise.all([filesUnder(fresh.buildDir), filesUnder(warm.buildDir)]);
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    expect([...expected.keys()].some((path) => path.endsWith(".wasm"))).toBe(true);
    for (const [path, bytes] of expected) expect(actual.get(path)?.equals(bytes), path).toBe(true);
  }, 120_000);
});
