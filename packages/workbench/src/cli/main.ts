// `subgraph-workbench <command> [args]`, run in a subgraph folder. Only the chosen command's modules are
// loaded, after the process settings a long-running one wants.
import { readFileSync } from "node:fs";
import * as nodeModule from "node:module";
import { join } from "node:path";
import { packageRoot } from "../lib/packageRoot.js";
import { applyLongRunningSettings } from "./processSettings.js";

interface Command {
  summary: string;
  /** Started again with the long-running process settings first. */
  longRunning?: boolean;
  load: () => Promise<unknown>;
}

const commands: Record<string, Command> = {
  test: { summary: "run the Matchstick tests in tests/ (graph test's arguments and flags)", load: () => import("../commands/test.js") },
  "test:json": { summary: "run gnd test's JSON test files (tests/*.json) on the local node", load: () => import("../commands/testJson.js") },
  node: { summary: "the graph-node-compatible local node (or --engine graph-node)", longRunning: true, load: () => import("../commands/node.js") },
  dev: { summary: "hot reload: build, deploy and re-index this subgraph on every save", longRunning: true, load: () => import("../commands/dev.js") },
  parity: { summary: "this subgraph on the local node and on the real graph-node, compared", load: () => import("../commands/parity.js") },
};

const version = (JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { version: string }).version;

const usage = `subgraph-workbench ${version}: test, run and develop a subgraph in its own folder, with no Docker.

Usage: subgraph-workbench <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(11)} ${c.summary}`)
  .join("\n")}

Options:
  -h, --help     this help; <command> --help for a command's
  -V, --version  the workbench's version

Examples:
  npx subgraph-workbench test
  npx subgraph-workbench node
  npx subgraph-workbench dev --ethereum-rpc http://127.0.0.1:8545
`;

const [name, ...args] = process.argv.slice(2);
if (name === undefined || name === "-h" || name === "--help" || name === "help") {
  process.stdout.write(usage);
  process.exitCode = name === undefined ? 2 : 0;
} else if (name === "-V" || name === "--version" || name === "-v") {
  console.log(version);
} else {
  const command = commands[name];
  if (!command) {
    console.error(`error: no command "${name}"; the commands are ${Object.keys(commands).join(", ")} (subgraph-workbench --help)`);
    process.exitCode = 2;
  } else {
    if (command.longRunning) applyLongRunningSettings();
    // V8's code cache on disk: a start after the first skips compiling the workbench's modules again.
    nodeModule.enableCompileCache?.();
    // The command reads its own arguments, as if it had been started alone.
    process.argv = [process.argv[0]!, `subgraph-workbench ${name}`, ...args];
    await command.load();
    nodeModule.flushCompileCache?.();
  }
}
