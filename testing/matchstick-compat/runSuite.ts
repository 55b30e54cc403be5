// Child-process entry of the compatibility run: one suite per process, because AssemblyScript keeps
// process-wide state (binaryen, std/portable) and two versions cannot compile in one process.
// `tsx test-runner/compat/runSuite.ts <subgraph dir> <summary.json>`; the report goes to stdout.
import { writeFileSync } from "node:fs";
import { runMatchstick } from "subgraph-workbench/test-runner";

const [root, out] = process.argv.slice(2);
if (root === undefined || out === undefined) {
  console.error("usage: tsx test-runner/compat/runSuite.ts <subgraph dir> <summary.json>");
  process.exit(2);
}
Error.stackTraceLimit = 50;
const summary = await runMatchstick({
  root,
  patterns: [],
  coverage: false,
  recompile: false,
  strict: true,
  color: false,
  write: (text) => process.stdout.write(text),
});
writeFileSync(out, JSON.stringify(summary, null, 2));
