// End to end: the AssemblyScript fixture project in _test/project compiled with asc and run on the host.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixtureProject } from "./_test/fixtureProject.js";
import { runMatchstick, type RunOptions, type RunSummary } from "./run.js";
import { ascFlags, createCompiler } from "./compile.js";

let project: string;

async function run(options: Partial<RunOptions>): Promise<{ summary: RunSummary; out: string }> {
  let out = "";
  const summary = await runMatchstick({
    root: project,
    patterns: [],
    coverage: false,
    recompile: false,
    color: false,
    write: (text) => {
      out += text;
    },
    ...options,
  });
  return { summary, out };
}

describe("runMatchstick on the fixture project", () => {
  let first: { summary: RunSummary; out: string };

  beforeAll(async () => {
    project = createFixtureProject();
    first = await run({ patterns: ["basics", "broken", "empty"] });
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it("reports each test with pass/fail and ms, grouped by describe", () => {
    expect(first.out).toMatch(/^ {2}hooks:\n {4}inner:\n {6}√ first - \d+\.\d{3}ms\n {4}√ second - /m);
    expect(first.out).toMatch(/^ {4}√ saves an entity - \d+\.\d{3}ms\n {6}💬 saved a$/m);
    expect(first.out).toMatch(/^ {4}𝖷 reports a wrong field value - /m);
  });

  it("runs hooks in Matchstick's order and never clears the store by itself", () => {
    expect(first.out).toMatch(/√ second/);
    expect(first.out).toMatch(/√ is not cleared between tests/);
    expect(first.out).toMatch(/√ shows a field saved as null as 'null', as Matchstick/);
  });

  it("keeps Matchstick's in-block mocks apart from the store", () => {
    expect(first.out).toMatch(/√ mockInBlockStore is seen by get_in_block only, until clearInBlockStore/);
    expect(first.out).toMatch(/√ mockInBlockStore checks non-null fields/);
  });

  it("fails only the trapping test and inverts shouldFail", () => {
    expect(first.out).toMatch(/𝖷 a trap fails only this test/);
    expect(first.out).toMatch(/√ shouldFail passes when the test throws/);
    expect(first.out).toMatch(/𝖷 shouldFail fails when the test passes/);
    expect(first.out).toMatch(/Expected test to fail but it passed successfully!/);
    expect(first.out).toMatch(/√ rejects a missing non-null field/);
  });

  it("lets an immutable entity be saved twice in one block", () => {
    expect(first.out).toMatch(/√ can be saved twice in one block/);
  });

  it("answers mocked calls, data source values, templates and IPFS files", () => {
    for (const name of ["ethereum.call answers", "dataSourceMock sets", "templates record", "ipfs.cat, ipfs.map and readFile"]) {
      expect(first.out).toContain(`√ ${name}`);
    }
  });

  it("prints failures with the assertion message and location, then the summaries", () => {
    const failed = first.out.slice(first.out.indexOf("Failed tests:"));
    expect(failed).toContain("(assert.fieldEquals) Expected field 'name' to equal 'beta', but was 'alpha' instead.");
    expect(failed).toMatch(/boom/);
    expect(failed).toMatch(/wasm backtrace:\n\s+0: 0x[0-9a-f]+ - /);
    expect(failed).toMatch(/at tests\/basics\.test\.ts:\d+ \(test "reports a wrong field value"\)/);
    expect(failed).toContain("tests/broken.test.ts (did not compile)");
    expect(first.out).toContain("4 failed, 15 passed, 19 total");
    expect(first.out.trimEnd().split("\n").pop()).toBe("15 passed, 4 failed");
    expect(first.summary).toMatchObject({ passed: 15, failed: 4, exitCode: 1 });
  });

  it("shows asc's diagnostics for a file that does not compile and still runs the others", () => {
    expect(first.out).toContain("ERROR TS2322: Type '~lib/string/String' is not assignable to type 'i32'.");
    expect(first.summary.compileFailures).toEqual(["tests/broken.test.ts"]);
    expect(first.out).toContain("No tests registered in tests/empty.test.ts");
  });

  it("reuses the cache until the file or an import changes; -r forces", async () => {
    const warm = await run({ patterns: ["basics", "empty"] });
    expect(warm.summary.compiled).toEqual([]);
    expect(warm.out).toMatch(/basics skipped!/);
    appendFileSync(join(project, "tests", "helpers.ts"), "\n// touched\n");
    const touched = await run({ patterns: ["basics", "empty"] });
    expect(touched.summary.compiled).toEqual(["tests/basics.test.ts"]);
    const forced = await run({ patterns: ["empty"], recompile: true });
    expect(forced.summary.compiled).toEqual(["tests/empty.test.ts"]);
  });

  it("compiles on worker threads (-j) to the same wasm as in one process", async () => {
    const wasm = (name: string) => readFileSync(join(project, "tests", ".bin", `${name}.wasm`));
    const pooled = await run({ patterns: ["basics", "empty"], recompile: true, jobs: 2 });
    expect(pooled.summary.compiled).toEqual(["tests/basics.test.ts", "tests/empty.test.ts"]);
    const single = await run({ patterns: ["basics", "empty"], recompile: true, jobs: 1 });
    expect(single.summary).toMatchObject({ passed: pooled.summary.passed, failed: pooled.summary.failed });
    const inProcess = await createCompiler({ root: project, libsFolder: join(project, "node_modules"), flags: ascFlags(false) });
    // The same file name in another folder: the module names its source map by it.
    const out = join(project, "in-process", "basics.wasm");
    expect((await inProcess.compile(join(project, "tests", "basics.test.ts"), out)).ok).toBe(true);
    expect(readFileSync(out)).toEqual(wasm("basics"));
  });

  it("names a trapping handler's source line, file and column from the compile's source map", async () => {
    const { summary, out } = await run({ patterns: ["trap"] });
    expect(summary).toMatchObject({ passed: 0, failed: 1 });
    // Where the fixture's handler traps, read from its source.
    const source = readFileSync(join(project, "src", "trapping.ts"), "utf8").split("\n");
    const line = source.findIndex((l) => l.includes("unreachable()")) + 1;
    const column = source[line - 1]!.indexOf("unreachable") + 1;
    expect(line).toBeGreaterThan(0);
    expect(out).toMatch(/🛠 {2}unreachable/);
    expect(out).toContain(`trapped at src/trapping.ts:${line}:${column} (in src/trapping/handleCount)`);
    // The backtrace: the handler at its line, then the test that called it, in the test file.
    expect(out).toMatch(new RegExp(`0: 0x[0-9a-f]+ - src/trapping/handleCount at src/trapping\\.ts:${line}:${column}`));
    expect(out).toMatch(/1: 0x[0-9a-f]+ - .* at tests\/trap\.test\.ts:5:\d+/);
  });

  it("turns a compiler crash into that file's compile failure", async () => {
    const { summary, out } = await run({ patterns: ["crash", "empty"], recompile: true });
    expect(out).toContain("Whoops, the AssemblyScript compiler has crashed during compile");
    expect(summary.compileFailures).toEqual(["tests/crash.test.ts"]);
    expect(summary.compiled).toEqual(["tests/empty.test.ts"]);
  });

  it("stops the whole run at log.critical", async () => {
    const { summary, out } = await run({ patterns: ["critical"] });
    expect(out).toContain("√ runs before the critical log");
    expect(out).toContain("🆘 stop here: now");
    expect(out).not.toContain("never runs");
    expect(summary).toMatchObject({ passed: 1, failed: 1, exitCode: 1, aborted: "stop here: now" });
  });

  it("stops the whole run at a failing hook; the tests after it do not run", async () => {
    const { summary, out } = await run({ patterns: ["hooks"] });
    expect(out).toMatch(/🆘 Unexpected error upon calling hook: .*hook broke/);
    expect(out).not.toContain("never runs either -");
    expect(out).toContain("The run stopped: 2 registered tests did not run.");
    expect(summary).toMatchObject({ passed: 0, failed: 1, notRun: 2, exitCode: 1 });
  });

  it("runs on Matchstick's mock store by default", async () => {
    const { summary, out } = await run({ patterns: ["semantics"] });
    expect(out).toContain("All 8 tests passed!");
    expect(summary).toMatchObject({ passed: 8, failed: 0, exitCode: 0 });
  });

  it("fails each of those tests on graph-node's semantics", async () => {
    const { summary, out } = await run({ patterns: ["semantics"], semantics: "graph-node" });
    expect(summary).toMatchObject({ passed: 0, failed: 8 });
    expect(out).toContain("entity Token[again] is immutable");
    expect(out).toContain("Missing ENS data: see https://github.com/graphprotocol/ens-rainbow");
  });

  it("--strict lists every test whose verdict changes on graph-node", async () => {
    const { summary, out } = await run({ patterns: ["semantics", "basics"], strict: true });
    expect(summary.verdictChanges?.map((c) => c.test.split(" › ").pop())).toEqual([
      "store.set replaces the entity instead of merging into it",
      "an immutable entity may be saved again after clearInBlockStore",
      "an immutable entity may be removed",
      "store.remove of a missing entity is an error",
      "get_in_block sees only mockInBlockStore entities",
      "fields the schema does not know are kept",
      "values are not checked against the field types",
      "ens.nameByHash answers Matchstick's mock name",
    ]);
    expect(out).toContain("8 tests change their verdict:");
    expect(out).toMatch(/tests\/semantics\.test\.ts › Matchstick's mock store › an immutable entity may be removed: passed under Matchstick, failed on graph-node\n\s+.*entity type Token is immutable/);
    expect(summary.exitCode).toBe(1);
  });

  it("reports coverage of the manifest's handlers (-c) without running tests", async () => {
    const { out, summary } = await run({ patterns: ["basics"], coverage: true });
    expect(out).toContain("Handlers for source 'Things':");
    expect(out).toContain("Handler 'handleUnnamed' is not tested.");
    expect(out).toContain("Handler 'handleNamed' is tested.");
    expect(out).toContain("Test coverage: 50.0% (1/2 handlers).");
    expect(out).toContain("Global test coverage: 50.0% (1/2 handlers).");
    expect(out).not.toContain("Igniting tests");
    expect(summary.exitCode).toBe(0);
  });
});

describe("runMatchstick on bad projects", () => {
  it("reports a missing tests folder clearly and exits 1", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runner-empty-"));
    try {
      writeFileSync(join(dir, "schema.graphql"), "type A @entity { id: ID! }\n");
      writeFileSync(join(dir, "subgraph.yaml"), "specVersion: 0.0.5\nschema:\n  file: ./schema.graphql\ndataSources: []\n");
      let out = "";
      const summary = await runMatchstick({ root: dir, patterns: [], coverage: false, recompile: false, color: false, write: (t) => (out += t) });
      expect(out).toContain(`🆘 tests folder not found: ${join(dir, "tests")}`);
      expect(summary.exitCode).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
