// The project's graph-cli is found from the subgraph folder, as Node resolves it; a release the workbench
// cannot drive, or none, is refused with what to install.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findGraphCli, GraphCliNotFoundError, SUPPORTED_GRAPH_CLI } from "./graphCli.js";

let root: string;

async function projectWithGraphCli(name: string, version: string | null): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ name }));
  if (version !== null) {
    const cli = join(dir, "node_modules", "@graphprotocol", "graph-cli");
    await mkdir(join(cli, "bin"), { recursive: true });
    await writeFile(join(cli, "package.json"), JSON.stringify({ name: "@graphprotocol/graph-cli", version }));
    await writeFile(join(cli, "bin", "run.js"), "");
  }
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "find-graph-cli-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("findGraphCli", () => {
  it("finds the release the project installed", async () => {
    const dir = await projectWithGraphCli("current", "0.98.1");
    expect(findGraphCli(dir)).toEqual({ bin: join(dir, "node_modules", "@graphprotocol", "graph-cli", "bin", "run.js"), version: "0.98.1" });
  });

  it("refuses a release it cannot drive, naming the range", async () => {
    const dir = await projectWithGraphCli("old", "0.60.0");
    expect(() => findGraphCli(dir)).toThrow(GraphCliNotFoundError);
    expect(() => findGraphCli(dir)).toThrow(`@graphprotocol/graph-cli 0.60.0 is installed, and the workbench drives graph-cli ${SUPPORTED_GRAPH_CLI}: install one of those`);
  });

  it("says what to add when the project has none", async () => {
    const dir = await projectWithGraphCli("none", null);
    expect(() => findGraphCli(dir)).toThrow(`no @graphprotocol/graph-cli is installed for ${dir}: add it to the project (npm i -D @graphprotocol/graph-cli)`);
  });
});
