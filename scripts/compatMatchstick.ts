// `npm run compat:matchstick -- (--mirrors <dir> | --checkouts <dir>) [--work <dir>] [--only <owner/name>]...
// [--list <suites.json>]`: re-runs public Matchstick suites unchanged on our runner and prints the
// compatibility table (test-runner/README.md). Nothing is downloaded from GitHub at run time: the
// repositories come from a folder of bare git mirrors (`<owner>+<name>/repo`, as `fetch` leaves them)
// or of checkouts (`<owner>+<name>`, at the listed commits). Their dependencies come from the npm
// registry, at the versions their lockfiles pin, into the work folder (default: <tmp>/compat).
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { projectRoot } from "../hardhat/projectRoot.js";
import { runCompat, type CompatResult, type CompatSuite } from "../testing/matchstick-compat/index.js";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  mirrors: { type: "string" },
  checkouts: { type: "string" },
  work: { type: "string", default: join(tmpdir(), "compat") },
  only: { type: "string", multiple: true },
  list: { type: "string", default: join(projectRoot, "testing", "matchstick-compat", "suites.json") },
  help: { type: "boolean", short: "h", default: false },
});

if (values.help || (!values.mirrors && !values.checkouts)) {
  console.log(`Usage: npm run compat:matchstick -- (--mirrors <dir> | --checkouts <dir>) [--work <dir>] [--only <owner/name>]... [--list <file>]

Runs each public Matchstick suite of the list (default test-runner/compat/suites.json: repository, commit,
preparation commands) unchanged on this runner, with --strict, and prints the table.
Nothing is downloaded from GitHub: give the repositories as
  --mirrors <dir>     bare git mirrors, <dir>/<owner>+<name>/repo (or <dir>/<owner>+<name>)
  --checkouts <dir>   work trees, <dir>/<owner>+<name>, at the listed commits
Each suite is exported to --work (default ${join(tmpdir(), "compat")}), outside the project; its graph-cli,
graph-ts, matchstick-as and assemblyscript come from the npm registry at the versions its lockfile pins.`);
  process.exit(values.help ? 0 : 2);
}

function row(r: CompatResult): string {
  const v = r.versions;
  const versions = [`graph-ts ${v["@graphprotocol/graph-ts"] ?? "?"}`, `matchstick-as ${v["matchstick-as"] ?? "?"}`, `graph-cli ${v["@graphprotocol/graph-cli"] ?? "?"}`].join(", ");
  const result =
    r.error !== null
      ? `not run: ${r.error.split("\n")[0]}`
      : `${r.files} file${r.files === 1 ? "" : "s"}: ${r.passed} passed, ${r.failed - r.compileFailures.length} failed${r.compileFailures.length > 0 ? `, ${r.compileFailures.length} file${r.compileFailures.length === 1 ? "" : "s"} did not compile` : ""}${r.aborted !== null ? `; stopped: ${r.aborted.split("\n")[0]}${r.notRun > 0 ? ` (${r.notRun} not run)` : ""}` : ""}`;
  // Grouped by verdict pair and reason: a hook that fails on graph-node changes every test after it at once.
  const groups = new Map<string, number>();
  for (const c of r.changes) {
    const key = `${c.first} → ${c.second}${c.reason ? `: ${c.reason.slice(0, 120)}` : ""}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const strict = r.error !== null ? "" : r.strictSkipped !== null ? `not compared: ${r.strictSkipped}` : r.changes.length === 0 ? "none" : [...groups].map(([key, n]) => `${n} × ${key}`).join("; ");
  return `| ${r.suite.repo} | ${r.suite.commit.slice(0, 7)} | ${r.suite.kind} | ${versions} | ${result} | ${strict} |`;
}

try {
  const suites = (JSON.parse(readFileSync(values.list, "utf8")) as CompatSuite[]).filter((s) => !values.only || values.only.includes(s.repo));
  if (suites.length === 0) fail(`no suite in ${values.list} matches ${values.only?.join(", ")}`);
  const source = values.mirrors ? { mirrors: resolve(values.mirrors) } : { checkouts: resolve(values.checkouts!) };
  const results = await runCompat({ suites, source, work: resolve(values.work), log: (line) => console.log(line) });
  console.log("\n| Repository | Commit | Kind | Versions | Here | Verdicts that change on graph-node (--strict) |\n|---|---|---|---|---|---|");
  for (const r of results) console.log(row(r));
  for (const r of results) {
    if (r.changes.length === 0) continue;
    console.log(`\n${r.suite.repo}: --strict`);
    for (const c of r.changes) console.log(`  ${c.test}: ${c.first} -> ${c.second}${c.reason ? `: ${c.reason}` : ""}`);
  }
  const broken = results.filter((r) => r.error !== null).length;
  console.log(`\n${results.length} suites, ${broken} could not be prepared; logs under ${resolve(values.work)}`);
} catch (error) {
  fail(error);
}
