// `subgraph-workbench test [datasource...] [flags]`: `graph test`'s command line (Matchstick 0.6) on the
// workbench's TypeScript host, plus --strict. Exit code 1 when anything fails.
//   -c, --coverage     coverage report, no tests run
//   -r, --recompile    recompile every test file
//   -v, --version [t]  alone: print the version; with a tag (graph test -v 0.6.0): run, on Matchstick 0.6's semantics
//   -l, --logs         print the OS, CPU and how the tests run (graph test prints its download URL)
//   -f, --force        nothing to download or rebuild here: accepted for scripts that pass it
//   -d, --docker       no Docker is needed: the tests run in this process
//   -j, --jobs <n>     files compiled in parallel (default: one per core)
//   -O, --optimize     compile with Matchstick's exact asc flags (binaryen's optimizer included)
//   --strict           also run on graph-node's semantics and list each test whose verdict changes
//   --root <dir>       the subgraph project (default: the working directory)
//   --report <file>    the run's summary as JSON, for tools (the public suites' compatibility run)
import { readFileSync, writeFileSync } from "node:fs";
import { arch, cpus, platform, release } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { packageRoot } from "../lib/packageRoot.js";
import { runMatchstick } from "../test-runner/index.js";

const MATCHSTICK_VERSION = "0.6.0";
const USAGE = `Usage: subgraph-workbench test [datasource...] [flags]   (graph test's arguments and flags)

Runs the Matchstick tests in tests/ (tests/<datasource>/ or tests/<datasource>.test.ts for the names
given), as Matchstick ${MATCHSTICK_VERSION} does, with no binary and no Docker: the tests compile with the
project's AssemblyScript and run on the workbench's host. Exit code 0 when all pass, 1 when any fails.

  -c, --coverage          Run the tests in coverage mode (no tests run).
  -r, --recompile         Force-recompile tests.
  -v, --version [tag]     Alone: print the version. With a tag: accepted; the tests run on Matchstick ${MATCHSTICK_VERSION}'s semantics.
  -l, --logs              Log the OS, CPU model and how the tests run.
  -f, --force             Accepted: nothing is downloaded or rebuilt here.
  -d, --docker            Accepted: no Docker is needed, the tests run in this process.
  -j, --jobs <n>          Test files compiled in parallel (default: one per core).
  -O, --optimize          Compile with Matchstick's exact asc flags, binaryen's optimizer included (slower).
      --strict            Also run on graph-node's semantics; list each test whose verdict changes.
      --root <dir>        The subgraph project (default: the working directory).
      --report <file>     Also write the run's summary as JSON (counts, compile failures, verdict changes).
  -h, --help              This help.

Examples:
  npx subgraph-workbench test
  npx subgraph-workbench test ApprovalToken -r
  npx subgraph-workbench test -c`;

function ownVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

// `-v` takes an optional tag (graph test -v 0.6.0): split it off before node's parser, which has no optional values.
const argv = process.argv.slice(2);
let versionTag: string | null = null;
let versionOnly = false;
const rest: string[] = [];
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i]!;
  if (arg === "-v" || arg === "--version") {
    const next = argv[i + 1];
    if (next !== undefined && /^v?\d+\.\d+/.test(next)) {
      versionTag = next;
      i++;
    } else versionOnly = true;
  } else if (arg.startsWith("--version=")) versionTag = arg.slice("--version=".length);
  else rest.push(arg);
}

let values;
let positionals: string[];
try {
  ({ values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      coverage: { type: "boolean", short: "c", default: false },
      recompile: { type: "boolean", short: "r", default: false },
      logs: { type: "boolean", short: "l", default: false },
      force: { type: "boolean", short: "f", default: false },
      docker: { type: "boolean", short: "d", default: false },
      jobs: { type: "string", short: "j" },
      optimize: { type: "boolean", short: "O", default: false },
      strict: { type: "boolean", default: false },
      root: { type: "string" },
      report: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  }));
} catch (err) {
  console.error(`${(err as Error).message}\n\n${USAGE}`);
  process.exit(2);
}

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (versionOnly) {
  console.log(`matchstick-compatible runner ${ownVersion()} (Matchstick ${MATCHSTICK_VERSION} semantics, no binary)`);
  process.exit(0);
}
const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1)) {
  console.error(`-j wants a positive whole number, got ${values.jobs}`);
  process.exit(2);
}
if (values.logs) {
  console.log(`OS: ${platform()} ${release()} (${arch()}); CPU: ${cpus()[0]?.model ?? "unknown"} x${cpus().length}; Node ${process.versions.node}`);
  console.log("No Matchstick binary is downloaded: the tests compile with the project's AssemblyScript and run in this process.");
}
if (versionTag !== null && !versionTag.replace(/^v/, "").startsWith("0.6")) {
  console.log(`Matchstick ${versionTag} requested: this runner follows Matchstick ${MATCHSTICK_VERSION}'s semantics.`);
}
if (values.docker) console.log("No Docker is needed: the tests run in this process (-d is accepted and changes nothing).");
if (values.force) console.log("Nothing to download or rebuild (-f is accepted and changes nothing).");

// Failure reports print the wasm frames of a trap; keep enough of the stack to reach the test's frames.
Error.stackTraceLimit = 50;
const summary = await runMatchstick({
  root: values.root ?? process.cwd(),
  patterns: positionals,
  coverage: values.coverage,
  recompile: values.recompile,
  strict: values.strict,
  optimize: values.optimize,
  ...(jobs !== undefined ? { jobs } : {}),
  write: (text) => process.stdout.write(text),
  color: process.stdout.isTTY === true && !process.env["NO_COLOR"],
  // On stderr: stdout stays Matchstick's report.
  progress: true,
});
if (values.report) writeFileSync(values.report, `${JSON.stringify(summary, null, 2)}\n`);
process.exitCode = summary.exitCode;
