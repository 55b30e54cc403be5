// `subgraph-workbench test:json [tests...] [-m subgraph.yaml] [-s] [--root <dir>] [-v]`: the JSON test files of
// graph-node's `gnd test` on the local node, with gnd's discovery, report and verdicts. Exit code 1 when
// a test fails.
import { parseArgs } from "node:util";
import { runJsonTests } from "../gnd-test/index.js";

const USAGE = `Usage: subgraph-workbench test:json [TESTS...] [options]   (gnd test's JSON tests, on the local node)

  [TESTS...]               Test files or folders (*.json, *.test.json); default: tests/
  -m, --manifest <file>    The subgraph manifest (default: subgraph.yaml)
  -s, --skip-build         Use build/subgraph.yaml as it is
      --root <dir>         The subgraph project (default: the working directory)
  -v, --verbose            Print the local node's log
  -h, --help               This help

Examples:
  npx subgraph-workbench test:json
  npx subgraph-workbench test:json tests/transfers.json -s`;

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      manifest: { type: "string", short: "m" },
      "skip-build": { type: "boolean", short: "s" },
      root: { type: "string" },
      verbose: { type: "boolean", short: "v" },
      help: { type: "boolean", short: "h" },
    },
  });
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
try {
  const outcome = await runJsonTests({
    paths: positionals,
    ...(values.root ? { root: values.root } : {}),
    ...(values.manifest ? { manifest: values.manifest } : {}),
    ...(values["skip-build"] ? { skipBuild: true } : {}),
    ...(values.verbose ? { nodeLog: (line: string) => console.error(line) } : {}),
  });
  if (outcome.failed > 0) console.error(`Error: ${outcome.failed} test(s) failed`);
  process.exit(outcome.failed > 0 ? 1 : 0);
} catch (error) {
  console.error(`Error: ${(error as Error).message}`);
  process.exit(1);
}
