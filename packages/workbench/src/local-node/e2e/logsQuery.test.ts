// `_logs` end to end: a fixture subgraph (local-node/e2e/_test/logs) logs at every level from its
// handler, on a real Hardhat chain, through the local node. What graph-node's own integration test
// (tests/integration-tests/logs-query) expects of `_logs` is checked here in our words, and more: each
// line is checked against the approvals the chain holds, and the entries outlast a restart of the node.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Contract } from "ethers";
import { readArtifact } from "../../../../../hardhat/deploy/artifacts.js";
import { connectChain } from "../../../../../hardhat/deploy/signers.js";
import type { BuiltSubgraph } from "../../lib/subgraphBuild.js";
import { createLocalNode, type LocalNode } from "../index.js";
import { backends, buildFor, deployWithGraphCli, freshDatabase, graphql, startChainWithToken, statusOf, waitForHead, waitForStatus, type Backend, type ChainFixture } from "./harness.js";

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const fixture = join(fileURLToPath(new URL(".", import.meta.url)), "_test", "logs");
/** Values the mapping logs something special for, then plain ones that only log "approval handled". */
const VALUES = [0n, 1n, 2n, 3n, 4n, 5n, 1000n, 1001n];

interface LogEntry {
  id: string;
  subgraphId: string;
  timestamp: string;
  level: string;
  text: string;
  arguments: { key: string; value: string }[];
  meta: { module: string; line: number; column: number };
}
type LogsAnswer = { data?: { _logs: LogEntry[] }; errors?: { message: string }[] };

let fx: ChainFixture;
let built: BuiltSubgraph;
/** The chain's truth: each special approval's transaction hash and block. */
const sent = new Map<bigint, { hash: string; block: number }>();
/** The approval of 99 (a critical line), sent once by the first suite to get there: the chain is shared. */
let critical: Promise<{ hash: string; block: number }> | null = null;

async function approve(value: bigint): Promise<{ hash: string; block: number }> {
  const { provider, signers } = await connectChain(fx.chain.url);
  try {
    const token = new Contract(fx.token.proxy, (await readArtifact("ApprovalToken")).abi, signers[2]);
    const tx = (await token.getFunction("approve")(`0x${(0x1000n + value).toString(16).padStart(40, "0")}`, value)) as { hash: string; wait(): Promise<{ blockNumber: number }> };
    return { hash: tx.hash, block: (await tx.wait()).blockNumber };
  } finally {
    provider.destroy();
  }
}

beforeAll(async () => {
  fx = await startChainWithToken();
  built = await buildFor(fx.token, fixture);
  for (const value of VALUES) sent.set(value, await approve(value));
});
afterAll(async () => {
  await fx?.stop();
});

describe.each(backends())("_logs on %s", (backend: Backend) => {
  const name = `e2e/logs-${backend}`;
  let dataDir = "";
  let db: { url: string; drop(): Promise<void> } | undefined;
  let node: LocalNode;
  let deploymentId = "";
  let queryUrl = "";
  const open = async (): Promise<LocalNode> =>
    createLocalNode({ ethereumRpc: fx.chain.url, dataDir, ...(db ? { databaseUrl: db.url } : {}), ports: { query: 0, admin: 0, ipfs: 0, status: 0 }, log: () => undefined, pollIntervalMs: 100 });
  const logs = async (args: string, fields = "id timestamp level text"): Promise<LogsAnswer> => graphql(queryUrl, `{ _logs(${args}) { ${fields} } }`) as Promise<LogsAnswer>;
  const entries = async (args: string, fields?: string): Promise<LogEntry[]> => {
    const answer = await logs(args, fields);
    expect(answer.errors).toBeUndefined();
    return answer.data?._logs ?? [];
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "local-node-logs-"));
    db = backend === "postgres" ? await freshDatabase() : undefined;
    node = await open();
    deploymentId = await deployWithGraphCli(built, name, node.urls);
    queryUrl = `${node.urls.query}/subgraphs/name/${name}`;
    await waitForHead(node.urls.status, name, fx.chain.url);
  });
  afterAll(async () => {
    await node?.close();
    await db?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("lists the mapping's lines, newest first, with the node's own lines about the deployment", async () => {
    const all = await entries("first: 1000", "id subgraphId timestamp level text arguments { key value } meta { module line column }");
    expect(all.length).toBeGreaterThan(VALUES.length);
    // graph-node's id is the deployment and the timestamp; timestamps are RFC 3339 with nanoseconds.
    for (const e of all) {
      expect(e.subgraphId).toBe(deploymentId);
      expect(e.id).toBe(`${deploymentId}-${e.timestamp}`);
      expect(e.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    }
    const stamps = all.map((e) => e.timestamp);
    expect(stamps).toEqual([...stamps].sort().reverse());
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    // One "approval handled" per approval on the chain, each naming its data source as its argument.
    const handled = all.filter((e) => e.text.startsWith("approval handled, "));
    expect(handled).toHaveLength(VALUES.length);
    for (const e of handled) {
      expect(e.level).toBe("INFO");
      expect(e.arguments).toEqual([{ key: "data_source", value: "ApprovalToken" }]);
      expect(e.text).toMatch(/^approval handled, data_source: ApprovalToken, component: UserMapping, block_hash: 0x[0-9a-f]{64}, block_number: \d+$/);
    }
    const line = (prefix: string): LogEntry | undefined => all.find((e) => e.text.startsWith(prefix));
    expect(line("approval of nothing seen, ")?.level).toBe("INFO");
    expect(line("approval of one looks wrong, ")?.level).toBe("ERROR");
    // graph-node answers slog's name for a warning.
    expect(line(`approval of two is odd, transaction ${sent.get(2n)?.hash}, `)?.level).toBe("WARN");
    expect(line(`approval of three at block ${sent.get(3n)?.block}, `)?.level).toBe("DEBUG");
    expect(line("approval of four stored as 0x")?.level).toBe("INFO");
    expect(line(`approval of one looks wrong, data_source: ApprovalToken, component: UserMapping, block_hash: `)?.text).toContain(`block_number: ${sent.get(1n)?.block}`);
    // The node's own lines about the deployment are kept too (graph-node keeps its subgraph logger's).
    expect(all.some((e) => e.arguments.length === 0 && e.meta.module === "local-node/indexer")).toBe(true);
  });

  it("filters by level, text, and time; orders both ways; pages without overlap", async () => {
    const errors = await entries("level: ERROR, first: 100", "level text");
    expect(errors.map((e) => e.level)).toEqual(errors.map(() => "ERROR"));
    expect(errors.filter((e) => e.text.startsWith("approval of ")).map((e) => e.text.split(",")[0])).toEqual(["approval of five ran into a Timeout upstream", "approval of one looks wrong"]);
    expect((await entries("level: DEBUG", "text")).some((e) => e.text.startsWith("approval of three at block"))).toBe(true);

    const timeouts = await entries('search: "timeout", first: 100', "text");
    expect(timeouts.length).toBeGreaterThan(0);
    for (const e of timeouts) expect(e.text.toLowerCase()).toContain("timeout");
    expect(timeouts.some((e) => e.text.startsWith("approval of five ran into a Timeout upstream"))).toBe(true);

    const newest = await entries("first: 4");
    const firstPage = await entries("first: 2, skip: 0", "id");
    const secondPage = await entries("first: 2, skip: 2", "id");
    expect(firstPage.map((e) => e.id)).toEqual(newest.slice(0, 2).map((e) => e.id));
    expect(secondPage.map((e) => e.id)).toEqual(newest.slice(2, 4).map((e) => e.id));
    expect(secondPage.some((e) => firstPage.some((f) => f.id === e.id))).toBe(false);

    const all = await entries("first: 1000");
    const oldest = await entries("first: 1000, orderDirection: asc");
    expect(oldest.map((e) => e.id)).toEqual([...all].reverse().map((e) => e.id));
    const middle = all[Math.floor(all.length / 2)]!.timestamp;
    const since = await entries(`first: 1000, from: "${middle}"`);
    expect(since.map((e) => e.id)).toEqual(all.filter((e) => e.timestamp >= middle).map((e) => e.id));
    const until = await entries(`first: 1000, to: "${middle}"`);
    expect(until.map((e) => e.id)).toEqual(all.filter((e) => e.timestamp <= middle).map((e) => e.id));
  });

  it("answers only the fields asked for, under aliases, with fragments and __typename", async () => {
    const [one] = await entries("first: 1", "id timestamp");
    expect(Object.keys(one ?? {})).toEqual(["id", "timestamp"]);
    // Aliases inside only: on a failed deployment graph-node spares `_logs` by its response key (an alias at
    // the root is asked in the last test).
    const r = await graphql<{ _logs: Record<string, unknown>[] }>(queryUrl, "{ _logs(first: 1, search: \"approval handled\") { when: timestamp ...F __typename arguments { k: key __typename } } } fragment F on _Log_ { level }");
    expect(r.errors).toBeUndefined();
    expect(Object.keys(r.data?._logs[0] ?? {})).toEqual(["when", "level", "__typename", "arguments"]);
    expect(r.data?._logs[0]).toMatchObject({ level: "INFO", __typename: "_Log_", arguments: [{ k: "data_source", __typename: "_LogArgument_" }] });
    // graph-node's check of structured logging: every entry answers its arguments, empty or not.
    const withArguments = await entries("first: 10", "text arguments { key value }");
    expect(withArguments).toHaveLength(10);
    for (const e of withArguments) expect(Array.isArray(e.arguments), e.text).toBe(true);
    // Beside introspection the answer goes through graphql-js, which must still pass slog's `WARN`. On a
    // failed deployment (the second backend's: the chain holds the critical approval by then) graph-node
    // adds its indexing_error for the introspection field, and keeps both fields' data.
    const failed = (await statusOf(node.urls.status, name))?.health === "failed";
    const beside = await graphql<{ _logs: { level: string }[]; __type: { name: string } }>(queryUrl, '{ _logs(search: "two is odd") { level } __type(name: "LogLevel") { name } }');
    expect(beside.errors).toEqual(failed ? [{ message: "indexing_error" }] : undefined);
    expect(beside.data).toEqual({ _logs: [{ level: "WARN" }], __type: { name: "LogLevel" } });
  });

  it("refuses what graph-node refuses, with its messages", async () => {
    const combined = await graphql(queryUrl, "{ _logs(first: 10) { id text } approvalQueries { id value } }");
    expect(combined.data).toBeUndefined();
    expect(combined.errors?.[0]?.message).toBe("The _logs query cannot be combined with other entity queries in the same request");
    // `_meta` and `__typename` may stand beside it. On a failed deployment (the second backend's) graph-node
    // spares only the keys `_meta` and `_logs`: the `__typename` brings the indexing_error, and is dropped.
    const failed = (await statusOf(node.urls.status, name))?.health === "failed";
    const withMeta = await graphql<{ _logs: unknown[]; _meta: { deployment: string }; __typename?: string }>(queryUrl, "{ _logs(first: 1) { id } _meta { deployment } __typename }");
    expect(withMeta.errors).toEqual(failed ? [{ message: "indexing_error" }] : undefined);
    expect(withMeta.data?._meta.deployment).toBe(deploymentId);
    expect(withMeta.data?._logs).toHaveLength(1);
    expect(withMeta.data?.__typename).toBe(failed ? undefined : "Query");
    const refused: [string, string][] = [
      ["first: 1001", 'Invalid value provided for argument `first`: String("first must not exceed 1000")'],
      ["first: -1", 'Invalid value provided for argument `first`: String("first must be non-negative")'],
      ["skip: 10001", 'Invalid value provided for argument `skip`: String("skip must not exceed 10000")'],
      ['search: ""', 'Invalid value provided for argument `search`: String("Invalid search text: search text cannot be empty")'],
      ['search: "a:b"', 'Invalid value provided for argument `search`: String("Invalid search text: search text contains invalid characters ({}[]:\\")")'],
      ['from: "yesterday"', 'Invalid value provided for argument `from`: String("Invalid timestamp: must be in ISO 8601 format (e.g., 2024-01-15T10:30:00Z)")'],
      ['to: "2026T10"', 'Invalid value provided for argument `to`: String("Invalid timestamp: must include timezone (Z or offset like +00:00)")'],
      // graph-node parses the level with slog, whose name for a warning is WARN: its own enum's WARNING fails.
      ["level: WARNING", 'Invalid value provided for argument `level`: String("Invalid log level: WARNING")'],
    ];
    for (const [args, message] of refused) {
      const answer = await logs(args);
      expect(answer.data, args).toBeUndefined();
      expect(answer.errors?.map((e) => e.message), args).toEqual([message]);
    }
    const unknownField = await graphql(queryUrl, "{ _logs { id nope } }");
    expect(unknownField.errors?.[0]?.message).toBe("Type `_Log_` has no field `nope`");
  });

  it("answers by deployment id, keeps the entries across a restart, and after a critical line fails the deployment", async () => {
    const byName = await entries("first: 1000", "id");
    const byId = await graphql<{ _logs: { id: string }[] }>(`${node.urls.query}/subgraphs/id/${deploymentId}`, "{ _logs(first: 1000) { id } }");
    expect(byId.data?._logs.map((e) => e.id)).toEqual(byName.map((e) => e.id));

    await node.close();
    node = await open();
    queryUrl = `${node.urls.query}/subgraphs/name/${name}`;
    const afterRestart = await entries("first: 1000", "id");
    // Everything from before, below what the restarted node logged since.
    expect(afterRestart.slice(afterRestart.length - byName.length).map((e) => e.id)).toEqual(byName.map((e) => e.id));

    critical ??= approve(99n);
    const failedAt = await critical;
    await waitForStatus(node.urls.status, name, (s) => s.health === "failed");
    const criticals = await entries("level: CRITICAL", "level text arguments { key value }");
    expect(criticals).toEqual([{ level: "CRITICAL", text: `approval of 99 cannot be handled, data_source: ApprovalToken, component: UserMapping, block_hash: ${await blockHash(failedAt.block)}, block_number: ${failedAt.block}`, arguments: [{ key: "data_source", value: "ApprovalToken" }] }]);
    // A debugging field: a failed deployment answers it without an indexing_error, as `_meta`; graph-node's
    // fatal-error test asks these two of its failed subgraph.
    const failed = await logs("first: 100");
    expect(failed.errors).toBeUndefined();
    expect(failed.data?._logs.length).toBeGreaterThan(0);
    // Spared by its response key, as graph-node spares it: under an alias the indexing_error is back.
    expect(await graphql(queryUrl, "{ recent: _logs(first: 1) { id } }")).toEqual({ errors: [{ message: "indexing_error" }] });
    const failedErrors = await entries("level: ERROR, first: 100", "level text");
    expect(failedErrors.length).toBeGreaterThan(0);
    expect(failedErrors.map((e) => e.level)).toEqual(failedErrors.map(() => "ERROR"));
  });
});

async function blockHash(number: number): Promise<string> {
  const res = await fetch(fx.chain.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: [`0x${number.toString(16)}`, false] }) });
  return ((await res.json()) as { result: { hash: string } }).result.hash;
}
