// The layering rules, checked over the real import graph (testing/importGraph.ts):
// - every arrow between parts points down: a part imports only the parts listed below it;
// - production code enters another part only through its front door (index.ts, or a lib module);
// - no import cycle among files, type-only imports included.
// Tests, _test/ fixtures and benchmarks may open a lower part's internals (white-box tests) and use the
// chain fixtures (hardhat/, clients/subgraph) and testing/, but never point up.
import { describe, expect, it } from "vitest";
import { projectRoot } from "../packages/workbench/src/lib/projectRoot.js";
import { findCycles, listSourceFiles, readImportGraph, type ImportEdge } from "./importGraph.js";

/** Each part, with the parts its production code may import. Order is bottom-up. */
const layers: Record<string, string[]> = {
  lib: [],
  "subgraph-schema": ["lib"],
  // The host's bottom: its error tree, then plain values (hex, BigDecimal math, store and ABI values).
  "wasm-host/errors.ts": ["lib"],
  "wasm-host/values": ["wasm-host/errors.ts"],
  "wasm-host": ["lib", "subgraph-schema", "wasm-host/errors.ts", "wasm-host/values"],
  "test-runner": ["lib", "subgraph-schema", "wasm-host"],
  "hardhat/chain": ["lib"],
  "hardhat/deploy": ["lib", "hardhat/chain"],
  "hardhat/test": ["lib", "hardhat/chain", "hardhat/deploy"],
  "clients/json-rpc": ["lib"],
  "clients/evm": ["lib", "clients/json-rpc"],
  "clients/solana": ["lib", "clients/json-rpc"],
  "clients/move": ["lib"],
  "clients/marketplace": ["lib"],
  "clients/subgraph": ["lib"],
  // The local node's own parts, bottom-up.
  "local-node/chain": ["lib", "clients/json-rpc", "wasm-host"],
  // The row text format (and the errors it throws) are inner layers: the handlers' thread writes
  // immutable rows as COPY lines without loading the store's database code.
  "local-node/store/errors.ts": ["lib"],
  "local-node/store/rowText.ts": ["lib", "subgraph-schema", "wasm-host", "local-node/store/errors.ts"],
  "local-node/store": ["lib", "subgraph-schema", "wasm-host", "local-node/store/errors.ts", "local-node/store/rowText.ts"],
  // The content-path parser (and the errors it throws) are their own inner layers: the handlers' thread
  // reads file data sources' paths without loading IPFS's store and server.
  "local-node/ipfs/errors.ts": ["lib"],
  "local-node/ipfs/contentPath.ts": ["lib", "local-node/ipfs/errors.ts"],
  "local-node/ipfs": ["lib", "local-node/ipfs/errors.ts", "local-node/ipfs/contentPath.ts"],
  "local-node/poi": ["lib", "wasm-host"],
  "local-node/manifest": ["lib", "subgraph-schema", "local-node/ipfs"],
  "local-node/graphql": ["lib", "subgraph-schema", "wasm-host", "local-node/store"],
  "local-node/query-server": ["lib", "local-node/graphql", "local-node/store"],
  "local-node/proofs": ["lib", "subgraph-schema", "wasm-host", "local-node/poi", "local-node/store"],
  "local-node/status": ["lib", "local-node/poi", "local-node/proofs", "local-node/query-server", "local-node/store"],
  "local-node/indexer": ["lib", "subgraph-schema", "wasm-host", "clients/json-rpc", "local-node/chain", "local-node/ipfs", "local-node/poi", "local-node/store", "local-node/store/rowText.ts"],
  "local-node/admin": ["lib", "local-node/ipfs", "local-node/manifest", "local-node/store"],
  "local-node": ["lib", "wasm-host", ...["admin", "chain", "indexer", "ipfs", "manifest", "poi", "proofs", "query-server", "status", "store"].map((p) => `local-node/${p}`)],
  "local-node/e2e": ["*"],
  // The real graph-node from npm, as an engine beside the local node.
  "graph-node": ["lib"],
  // graph-node's `gnd test` JSON tests on the local node: a consumer of the node's front door.
  "gnd-test": ["lib", "clients/json-rpc", "local-node"],
  // Differential parity between the two engines: a top-level consumer, like scripts.
  parity: ["*"],
  scripts: ["*"],
  testing: ["*"],
};

/** Inner layers the rest of their component reaches directly: the direction is checked, not the door. */
const openInside: Record<string, string> = {
  "wasm-host/errors.ts": "wasm-host",
  "wasm-host/values": "wasm-host",
  "local-node/ipfs/errors.ts": "local-node",
  "local-node/ipfs/contentPath.ts": "local-node",
  "local-node/store/errors.ts": "local-node",
  "local-node/store/rowText.ts": "local-node",
};

/** Parts that test code may use beside its own part's allowed ones. */
const fixtures = ["lib", "hardhat/chain", "hardhat/deploy", "clients/subgraph", "testing"];

const folders = ["lib", "subgraph-schema", "wasm-host", "test-runner", "local-node", "gnd-test", "graph-node", "parity", "clients", "hardhat", "scripts", "testing"];

function partOf(file: string): string {
  const matches = Object.keys(layers).filter((part) => file === part || file.startsWith(`${part}/`));
  const part = matches.sort((a, b) => b.length - a.length)[0];
  if (!part) throw new Error(`${file} belongs to no part: add its folder to the layers in architecture.test.ts`);
  return part;
}

function isTestCode(file: string): boolean {
  return /\.test\.ts$|\.bench\.ts$|\/_test\//.test(file) || file.startsWith("local-node/e2e/") || file.startsWith("scripts/bench/") || file.startsWith("testing/");
}

/** `to` is `part` or lies inside it (permission for wasm-host covers its inner layers). */
function within(to: string, part: string): boolean {
  return to === part || to.startsWith(`${part}/`);
}

const component = (file: string) => file.split("/")[0];

function isFrontDoor(file: string, part: string): boolean {
  if (part === "lib") return /^lib\/[^/]+\.ts$/.test(file) || /^lib\/[^/]+\/index\.ts$/.test(file);
  return file === `${part}/index.ts`;
}

const files = listSourceFiles(projectRoot, folders);
const edges = readImportGraph(projectRoot, files);
const crossing = edges.filter((e) => partOf(e.from) !== partOf(e.to));
const show = (e: ImportEdge) => `${e.from} -> ${e.to}`;

describe("the import graph", () => {
  it("is read from the real sources", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(crossing.length).toBeGreaterThan(100);
  });

  it("has every arrow between parts pointing down", () => {
    const upward = crossing.filter((e) => {
      const from = partOf(e.from);
      const to = partOf(e.to);
      const allowed = layers[from] ?? [];
      if (allowed.includes("*") || allowed.some((part) => within(to, part))) return false;
      if (!isTestCode(e.from)) return true;
      // Tests may use the chain fixtures, and the test code of their own component (e2e harness, _test/).
      return !(fixtures.includes(to) || (isTestCode(e.to) && component(e.to) === component(e.from)));
    });
    if (upward.length) console.log(upward.map(show).join("\n"));
    expect(upward.map(show)).toEqual([]);
  });

  it("enters another part only through its front door", () => {
    const sideDoors = crossing.filter((e) => {
      const to = partOf(e.to);
      if (isTestCode(e.from) || isFrontDoor(e.to, to)) return false;
      return openInside[to] !== component(e.from);
    });
    if (sideDoors.length) console.log(sideDoors.map(show).join("\n"));
    expect(sideDoors.map(show)).toEqual([]);
  });

  it("has no import cycle, type-only imports included", () => {
    expect(findCycles(edges)).toEqual([]);
  });

  it("names a part for every file", () => {
    expect(() => files.forEach(partOf)).not.toThrow();
  });
});
