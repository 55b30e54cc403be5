import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../../../hardhat/projectRoot.js";
import { MATCHSTICK_ASC_FLAGS, createCompiler, locateAsc } from "./compile.js";

const libsFolder = join(projectRoot, "node_modules");
const testFile = join(projectRoot, "tests", "approval.test.ts");
let outDir = "";

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe("createCompiler", () => {
  it("emits the bytes asc emits on its own, with binaryen's JavaScript build (Matchstick's flags)", async () => {
    outDir = await mkdtemp(join(tmpdir(), "runner-compile-"));
    const compiler = await createCompiler({ root: projectRoot, libsFolder });
    const ours = await compiler.compile(testFile, join(outDir, "ours.wasm"));
    expect(ours.ok, ours.diagnostics).toBe(true);
    // asc in a process of its own, global.binaryen unset: the compiler loads the package's default build.
    const reference = join(outDir, "reference.wasm");
    const script = `require(process.argv[1]).main(JSON.parse(process.argv[2]), {}, (err) => { if (err) { console.error(err); process.exit(1); } return 0; });`;
    const args = [...compiler.args(testFile, reference), "--baseDir", projectRoot];
    const run = spawnSync(process.execPath, ["-e", script, locateAsc(libsFolder), JSON.stringify(args)], { cwd: projectRoot, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(compiler.args(testFile, reference)).toEqual(expect.arrayContaining([...MATCHSTICK_ASC_FLAGS]));
    expect((await readFile(join(outDir, "ours.wasm"))).equals(await readFile(reference))).toBe(true);
  }, 120_000);
});
