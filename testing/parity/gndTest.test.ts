// `gnd test`'s JSON test files, run by graph-node's own `gnd test` (v0.45, from npm) and by gnd-test/ on
// the local node: the same verdict for every file and every assertion that gnd decides deterministically.
// The fixture's files pass and fail for different reasons (a wrong value, an extra key, a call the file
// does not mock, a reverted call, a missing IPFS file), so equal verdicts are not equal by accident. The
// two file data source files are checked against their intended verdicts only: gnd's verdict for them
// depends on timing (TIMED_BY_GND).
import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runJsonTests } from "subgraph-workbench/gnd-test";
import { findGndBinary } from "subgraph-workbench/graph-node";
import { dropDatabase, ensureDatabase, postgresFromEnvOrThrowaway } from "subgraph-workbench/lib/embedded-postgres";
import { graphCli } from "subgraph-workbench/lib/graphCli";
import { projectRoot } from "../../hardhat/projectRoot.js";

const run = promisify(execFile);
// Five sequential `gnd test` runs, each starting graph-node: about 70 s on an idle 2-core machine, past
// the default 120 s when other suites share the cores.
vi.setConfig({ testTimeout: 600_000 });
const gndAvailable = process.platform === "linux" && process.arch === "x64";

interface Verdict {
  passed: boolean;
  /** Each assertion's query with ✔ or ✘, in order. */
  assertions: string[];
  handlerError: boolean;
}

/** The verdict lines gnd prints for one test file: `  ✔ name`, `    Handler error: …`, `    ✘ query`. */
function parseGndReport(output: string): Verdict {
  const lines = output.split("\n");
  const head = lines.find((l) => /^ {2}[✔✘] /.test(l));
  if (!head) throw new Error(`gnd test printed no verdict:\n${output}`);
  return {
    passed: head.startsWith("  ✔"),
    assertions: lines.filter((l) => /^ {4}[✔✘] /.test(l)).map((l) => l.trim()),
    handlerError: lines.some((l) => l.startsWith("    Handler error:")),
  };
}

const EXPECTED: Record<string, boolean> = {
  "extra-key.json": false,
  "file-data-source.json": true,
  "missing-file.json": false,
  "reverted-call.json": false,
  "transfers.json": true,
  "unmocked-call.json": false,
  "wrong-value.json": false,
};

/**
 * Files whose verdict under gnd depends on timing: gnd fetches a file data source's file in the background
 * and handles it with the next block it processes after the fetch, so when its static block stream ends
 * first, the file is never handled (seen once under load: file-data-source.json failed on gnd, passing on
 * the next run). Only their intended verdict is checked here; gnd is not asked.
 */
const TIMED_BY_GND = new Set(["file-data-source.json", "missing-file.json"]);

describe.runIf(gndAvailable)("gnd test's JSON tests: gnd-test on the local node against graph-node's gnd test", () => {
  let dir: string;
  let postgres: Awaited<ReturnType<typeof postgresFromEnvOrThrowaway>>;
  const databases: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "gnd-test-parity-"));
    await cp(join(projectRoot, "packages", "workbench", "src", "gnd-test", "_test", "token"), dir, { recursive: true });
    await symlink(join(projectRoot, "node_modules"), join(dir, "node_modules"), "dir");
    await graphCli(["codegen", "--output-dir", "generated/"], { cwd: dir });
    postgres = await postgresFromEnvOrThrowaway();
  });

  afterAll(async () => {
    for (const db of databases) await dropDatabase(postgres.url, db).catch(() => undefined);
    if (postgres?.embedded) await postgres.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("gives every file gnd decides deterministically, and each of its assertions, gnd's verdict", async () => {
    const files = (await readdir(join(dir, "tests"))).sort();
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    // gnd, one database per file: after a failure it keeps its database, whose fatal error would leak
    // into the next file's run.
    const gnd = new Map<string, Verdict>();
    for (const [i, file] of files.filter((f) => !TIMED_BY_GND.has(f)).entries()) {
      const database = `gnd_test_${process.pid}_${i}`;
      databases.push(database);
      const url = await ensureDatabase(postgres.url, database);
      const args = ["test", ...(i === 0 ? [] : ["--skip-build"]), "--postgres-url", url, join("tests", file)];
      const result = await run(findGndBinary(), args, { cwd: dir, timeout: 180_000, maxBuffer: 32 * 1024 * 1024 }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? "", stderr: e.stderr ?? "" }));
      gnd.set(file, parseGndReport(`${result.stdout}\n${result.stderr}`));
    }

    const ours = await runJsonTests({ root: dir, print: () => undefined });
    for (const file of files) {
      const result = ours.results.find((r) => r.file.endsWith(`/${file}`));
      expect(result, file).toBeDefined();
      const verdict: Verdict = {
        passed: result!.handlerError === null && result!.assertions.every((a) => a.passed),
        assertions: result!.assertions.map((a) => `${a.passed ? "✔" : "✘"} ${a.query}`),
        handlerError: result!.handlerError !== null,
      };
      if (!TIMED_BY_GND.has(file)) expect(verdict, `${file}: gnd-test against gnd test`).toEqual(gnd.get(file));
      expect(verdict.passed, `${file}: the fixture's intended verdict`).toBe(EXPECTED[file]);
    }
  });
});
