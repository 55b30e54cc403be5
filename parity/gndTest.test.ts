// `gnd test`'s JSON test files, run by graph-node's own `gnd test` (v0.45, from npm) and by gnd-test/ on
// the local node: the same verdict for every file and every assertion. The fixture's files pass and fail
// for different reasons (a wrong value, an extra key, a call the file does not mock, a reverted call, a
// missing IPFS file), so equal verdicts are not equal by accident.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJsonTests } from "../gnd-test/index.js";
import { findGndBinary } from "../graph-node/index.js";
import { dropDatabase, ensureDatabase, postgresFromEnvOrThrowaway } from "../lib/embedded-postgres/index.js";
import { graphCli } from "../lib/graphCli.js";
import { projectRoot } from "../lib/projectRoot.js";

const run = promisify(execFile);
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

describe.runIf(gndAvailable)("gnd test's JSON tests: gnd-test on the local node against graph-node's gnd test", () => {
  let dir: string;
  let postgres: Awaited<ReturnType<typeof postgresFromEnvOrThrowaway>>;
  const databases: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "gnd-test-parity-"));
    await cp(join(projectRoot, "gnd-test", "_test", "token"), dir, { recursive: true });
    await symlink(join(projectRoot, "node_modules"), join(dir, "node_modules"), "dir");
    await graphCli(["codegen", "--output-dir", "generated/"], { cwd: dir });
    postgres = await postgresFromEnvOrThrowaway();
  });

  afterAll(async () => {
    for (const db of databases) await dropDatabase(postgres.url, db).catch(() => undefined);
    if (postgres?.embedded) await postgres.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("gives every file and every assertion gnd's verdict", async () => {
    const files = (await readdir(join(dir, "tests"))).sort();
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    // gnd, one database per file: after a failure it keeps its database, whose fatal error would leak
    // into the next file's run.
    const gnd = new Map<string, Verdict>();
    for (const [i, file] of files.entries()) {
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
      expect(verdict, `${file}: gnd-test against gnd test`).toEqual(gnd.get(file));
      expect(verdict.passed, `${file}: the fixture's intended verdict`).toBe(EXPECTED[file]);
    }
  });
});
