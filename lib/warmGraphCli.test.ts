import { afterAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWarmGraphCli } from "./warmGraphCli.js";

const graph = createWarmGraphCli();
let empty: string | null = null;

afterAll(async () => {
  await graph.close();
  if (empty) await rm(empty, { recursive: true, force: true });
});

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
});
