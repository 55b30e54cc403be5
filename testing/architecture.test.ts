// The layering rules, checked over the real import graph of the workspace (testing/importGraph.ts):
// - every arrow between parts points down: a part imports only the parts listed below it;
// - production code enters another part only through its front door (index.ts, or a lib module);
// - the workbench package (packages/workbench) is whole: its production code imports nothing outside
//   it, and the approval project's production code reaches it only by its name and `exports` entries,
//   as any project that installed it does;
// - no import cycle among files, type-only imports included.
// Tests, _test/ fixtures and benchmarks may open a lower part's internals (white-box tests) and use the
// approval project's chain fixtures (hardhat/, clients/subgraph) and testing/, but never point up.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../hardhat/projectRoot.js";
import { findCycles, listSourceFiles, readImportGraph, type ImportEdge, type WorkspacePackage } from "./importGraph.js";

const W = "packages/workbench/src";
const w = (...parts: string[]) => parts.map((p) => `${W}/${p}`);

/** Each part, with the parts its production code may import. Order is bottom-up. */
const layers: Record<string, string[]> = {
  // The workbench package, bottom-up.
  [`${W}/lib`]: [],
  [`${W}/subgraph-schema`]: w("lib"),
  // The host's bottom: its error tree, then plain values (hex, BigDecimal math, store and ABI values).
  [`${W}/wasm-host/errors.ts`]: w("lib"),
  [`${W}/wasm-host/values`]: w("wasm-host/errors.ts"),
  [`${W}/wasm-host`]: w("lib", "subgraph-schema", "wasm-host/errors.ts", "wasm-host/values"),
  [`${W}/test-runner`]: w("lib", "subgraph-schema", "wasm-host"),
  [`${W}/json-rpc`]: w("lib"),
  [`${W}/deploy`]: w("lib"),
  // The local node's own parts, bottom-up.
  // A network's providers (pool, limits, health, error kinds) sit under the chain access that uses them.
  [`${W}/local-node/providers`]: w("lib", "json-rpc"),
  [`${W}/local-node/chain`]: w("lib", "json-rpc", "wasm-host", "local-node/providers"),
  // The row text format (and the errors it throws) are inner layers: the handlers' thread writes
  // immutable rows as COPY lines without loading the store's database code.
  [`${W}/local-node/store/errors.ts`]: w("lib"),
  [`${W}/local-node/store/rowText.ts`]: w("lib", "subgraph-schema", "wasm-host", "local-node/store/errors.ts"),
  [`${W}/local-node/store`]: w("lib", "subgraph-schema", "wasm-host", "local-node/store/errors.ts", "local-node/store/rowText.ts"),
  // The content-path parser (and the errors it throws) are their own inner layers: the handlers' thread
  // reads file data sources' paths without loading IPFS's store and server.
  [`${W}/local-node/ipfs/errors.ts`]: w("lib"),
  [`${W}/local-node/ipfs/contentPath.ts`]: w("lib", "local-node/ipfs/errors.ts"),
  [`${W}/local-node/ipfs`]: w("lib", "local-node/ipfs/errors.ts", "local-node/ipfs/contentPath.ts"),
  [`${W}/local-node/poi`]: w("lib", "wasm-host"),
  [`${W}/local-node/manifest`]: w("lib", "subgraph-schema", "local-node/ipfs"),
  [`${W}/local-node/graphql`]: w("lib", "subgraph-schema", "wasm-host", "local-node/store"),
  [`${W}/local-node/query-server`]: w("lib", "local-node/graphql", "local-node/store"),
  [`${W}/local-node/proofs`]: w("lib", "subgraph-schema", "wasm-host", "local-node/poi", "local-node/store"),
  [`${W}/local-node/status`]: w("lib", "subgraph-schema", "wasm-host", "local-node/graphql", "local-node/poi", "local-node/proofs", "local-node/query-server", "local-node/store"),
  [`${W}/local-node/indexer`]: w("lib", "subgraph-schema", "wasm-host", "json-rpc", "local-node/chain", "local-node/ipfs", "local-node/poi", "local-node/store", "local-node/store/rowText.ts"),
  [`${W}/local-node/fork`]: w("lib", "subgraph-schema", "wasm-host", "local-node/graphql"),
  [`${W}/local-node/admin`]: w("lib", "local-node/ipfs", "local-node/manifest", "local-node/store"),
  // graph-node's Prometheus metrics (port 8040).
  [`${W}/local-node/metrics`]: w("lib", "wasm-host", "local-node/indexer"),
  // The dashboard page and its JSON (served on the query port beside graph-node's routes).
  [`${W}/local-node/dashboard`]: w("lib", "wasm-host", "local-node/indexer", "local-node/store"),
  [`${W}/local-node`]: w("lib", "wasm-host", ...["admin", "chain", "dashboard", "fork", "indexer", "metrics", "ipfs", "manifest", "poi", "proofs", "query-server", "status", "store"].map((p) => `local-node/${p}`)),
  [`${W}/local-node/e2e`]: ["*"],
  // The real graph-node from npm, as an engine beside the local node.
  [`${W}/graph-node`]: w("lib"),
  // graph-node's `gnd test` JSON tests on the local node: a consumer of the node's front door.
  [`${W}/gnd-test`]: w("lib", "json-rpc", "deploy", "local-node"),
  // Both engines as services of a command, and the command lines' shared support.
  [`${W}/node-services`]: w("lib", "local-node", "graph-node"),
  [`${W}/cli`]: w("lib"),
  // Differential parity between the two engines: a consumer of the node's parts.
  [`${W}/parity`]: w("lib", "subgraph-schema", "json-rpc", "deploy", "graph-node", "gnd-test", "local-node"),
  [`${W}/dev-loop`]: w("lib", "cli", "node-services", "test-runner"),
  // The commands, the dispatcher that loads one, and the package's programmatic entry: its top.
  [`${W}/commands`]: [`${W}/*`],
  [`${W}/cli/main.ts`]: w("lib", "cli", "commands"),
  [`${W}/index.ts`]: [`${W}/*`],
  // The package's own check of its package.json against what its code loads.
  [`${W}/packageManifest.test.ts`]: [],
  // The approval project: its own parts over the workbench, which it enters by name.
  "hardhat/projectRoot.ts": [],
  "hardhat/chain": ["hardhat/projectRoot.ts", W],
  "hardhat/deploy": ["hardhat/projectRoot.ts", "hardhat/chain", W],
  "hardhat/test": ["hardhat/chain", "hardhat/deploy", W],
  "clients/evm": [W],
  "clients/solana": [W],
  "clients/move": [W],
  "clients/marketplace": ["hardhat/projectRoot.ts", W],
  "clients/subgraph": [W],
  scripts: ["*"],
  testing: ["*"],
  // Suites of test material the scripts run: the parity cases, the real subgraphs, graph-node's own suites,
  // the public Matchstick suites.
  "testing/parity/cases": ["*"],
  "testing/real-subgraphs": ["*"],
  "testing/graph-node-suite": ["*"],
  "testing/matchstick-compat": ["*"],
};

/** Inner layers the rest of their component reaches directly: the direction is checked, not the door. */
const openInside: Record<string, string[]> = {
  [`${W}/wasm-host/errors.ts`]: [`${W}/wasm-host`],
  [`${W}/wasm-host/values`]: [`${W}/wasm-host`],
  [`${W}/local-node/ipfs/errors.ts`]: [`${W}/local-node`],
  [`${W}/local-node/ipfs/contentPath.ts`]: [`${W}/local-node`],
  [`${W}/local-node/store/errors.ts`]: [`${W}/local-node`],
  [`${W}/local-node/store/rowText.ts`]: [`${W}/local-node`],
  // The command line's own support: the dispatcher and the commands use its modules directly.
  [`${W}/cli`]: [`${W}/cli`, `${W}/commands`],
};

/** Parts that test code may use beside its own part's allowed ones. */
const fixtures = [`${W}/lib`, "hardhat/projectRoot.ts", "hardhat/chain", "hardhat/deploy", "clients/subgraph", "testing"];

const folders = [W, "clients", "hardhat", "scripts", "testing"];
const workbench = JSON.parse(readFileSync(join(projectRoot, "packages", "workbench", "package.json"), "utf8")) as { name: string; exports: WorkspacePackage["exports"] };
const packages: WorkspacePackage[] = [{ name: workbench.name, dir: "packages/workbench", exports: workbench.exports }];

function partOf(file: string): string {
  const matches = Object.keys(layers).filter((part) => file === part || file.startsWith(`${part}/`));
  const part = matches.sort((a, b) => b.length - a.length)[0];
  if (!part) throw new Error(`${file} belongs to no part: add its folder to the layers in architecture.test.ts`);
  return part;
}

function isTestCode(file: string): boolean {
  return /\.test\.ts$|\.bench\.ts$|\/_test\//.test(file) || file.startsWith(`${W}/local-node/e2e/`) || file.startsWith("scripts/bench/") || file.startsWith("testing/");
}

/** `to` is `part` or lies inside it (permission for wasm-host covers its inner layers; `W/*` all of W). */
function within(to: string, part: string): boolean {
  if (part.endsWith("/*")) return to.startsWith(part.slice(0, -1));
  return to === part || to.startsWith(`${part}/`);
}

const inWorkbench = (file: string) => file.startsWith(`${W}/`);
/** The top folder a file belongs to: a workbench part (`W/local-node`) or an approval folder (`clients`). */
const component = (file: string) => (inWorkbench(file) ? file.split("/").slice(0, 4).join("/") : file.split("/")[0]!);

function isFrontDoor(file: string, part: string): boolean {
  // Each command is an entry of its own: the dispatcher loads the one asked for.
  if (part === `${W}/commands`) return /^[^/]+\.ts$/.test(file.slice(part.length + 1));
  if (part === `${W}/lib`) return new RegExp(`^${W}/lib/[^/]+\\.ts$`).test(file) || new RegExp(`^${W}/lib/[^/]+/index\\.ts$`).test(file);
  return file === `${part}/index.ts` || file === part;
}

const files = listSourceFiles(projectRoot, folders);
const edges = readImportGraph(projectRoot, files, packages);
const crossing = edges.filter((e) => partOf(e.from) !== partOf(e.to));
const show = (e: ImportEdge) => `${e.from} -> ${e.to}${e.byName ? " (by name)" : ""}`;

describe("the import graph", () => {
  it("is read from the real sources", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(crossing.length).toBeGreaterThan(100);
    expect(edges.filter((e) => e.byName).length).toBeGreaterThan(50);
  });

  it("has every arrow between parts pointing down", () => {
    const upward = crossing.filter((e) => {
      const from = partOf(e.from);
      const to = partOf(e.to);
      const allowed = layers[from] ?? [];
      if (allowed.includes("*") || allowed.some((part) => within(to, part))) return false;
      if (!isTestCode(e.from)) return true;
      // Tests may use the chain fixtures, and the test code of their own component (e2e harness, _test/).
      return !(fixtures.some((f) => within(to, f)) || (isTestCode(e.to) && component(e.to) === component(e.from)));
    });
    if (upward.length) console.log(upward.map(show).join("\n"));
    expect(upward.map(show)).toEqual([]);
  });

  it("enters another part only through its front door", () => {
    const sideDoors = crossing.filter((e) => {
      const to = partOf(e.to);
      if (isTestCode(e.from) || e.byName || isFrontDoor(e.to, to)) return false;
      return !(openInside[to] ?? []).includes(component(e.from));
    });
    if (sideDoors.length) console.log(sideDoors.map(show).join("\n"));
    expect(sideDoors.map(show)).toEqual([]);
  });

  it("keeps the workbench package whole: its code imports nothing outside it, and the project enters it by name", () => {
    const leaving = edges.filter((e) => inWorkbench(e.from) && !isTestCode(e.from) && !inWorkbench(e.to));
    const byPath = edges.filter((e) => !inWorkbench(e.from) && !isTestCode(e.from) && inWorkbench(e.to) && !e.byName);
    const byNameInside = edges.filter((e) => inWorkbench(e.from) && e.byName);
    expect([...leaving, ...byPath, ...byNameInside].map(show)).toEqual([]);
  });

  it("has no import cycle, type-only imports included", () => {
    expect(findCycles(edges)).toEqual([]);
  });

  it("names a part for every file", () => {
    expect(() => files.forEach(partOf)).not.toThrow();
  });
});
