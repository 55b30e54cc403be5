// `tsx test-runner/cli.ts [name...] [-c|--coverage] [-r|--recompile] [--root <dir>]`:
// Matchstick's command line (graph test) on our TypeScript host. Exit code 1 when anything fails.
import { parseArgs } from "node:util";
import { runMatchstick } from "./run.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    coverage: { type: "boolean", short: "c", default: false },
    recompile: { type: "boolean", short: "r", default: false },
    root: { type: "string" },
    strict: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  console.log("Usage: tsx test-runner/cli.ts [test suite names...] [-c|--coverage] [-r|--recompile] [--root <project dir>]");
  process.exit(0);
}

// Failure reports print the wasm frames of a trap; keep enough of the stack to reach the test's frames.
Error.stackTraceLimit = 50;
const summary = await runMatchstick({
  root: values.root ?? process.cwd(),
  patterns: positionals,
  coverage: values.coverage,
  recompile: values.recompile,
  strict: values.strict,
  write: (text) => process.stdout.write(text),
  color: process.stdout.isTTY === true && !process.env["NO_COLOR"],
});
process.exitCode = summary.exitCode;
