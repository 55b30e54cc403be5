// `npm run dev`: the dev loop on a copy of the project's subgraph, against a real Hardhat chain, the
// real local node and the real graph-cli. Each save is followed by waiting on the loop's own report,
// then the query by name is checked against the chain's Approval logs.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { cp, mkdtemp, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { listen, type RunningServer } from "subgraph-workbench/lib/http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHardhatNode, type HardhatNode } from "../hardhat/chain/hardhatNode.js";
import { readNetworks } from "../hardhat/deploy/networks.js";
import { freePort } from "subgraph-workbench/lib/freePort";
import { projectRoot } from "../hardhat/projectRoot.js";
import { approvalsFromChain } from "./_test/chainApprovals.js";
import { descendantsOf, isRunning } from "subgraph-workbench/lib/processTree";

// A cold graph-cli build takes 10-20 s on a loaded 2-core machine; each wait below has its own deadline.
vi.setConfig({ testTimeout: 600_000 });

let chain: HardhatNode;
let dir: string;
let dataDir: string;
let dev: ChildProcess | null = null;
let output = "";
let queryUrl: string;
// The loop reaches the chain through this counting forwarder: its node keeps the chain's data, so a
// re-index asks the chain for no logs.
let forwarder: RunningServer;
const chainCalls = new Map<string, number>();

beforeAll(async () => {
  chain = await startHardhatNode();
  // A private copy: the loop writes generated/, build/ and networks.json there, never in the project.
  dir = await mkdtemp(join(tmpdir(), "dev-loop-"));
  for (const file of ["subgraph.yaml", "schema.graphql", "src", "abis", "networks.json", "tests"]) await cp(join(projectRoot, file), join(dir, file), { recursive: true });
  await symlink(join(projectRoot, "node_modules"), join(dir, "node_modules"), "dir");
  dataDir = await mkdtemp(join(tmpdir(), "dev-loop-data-"));
  const forwarding = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      const calls = JSON.parse(body) as { method: string } | { method: string }[];
      for (const c of Array.isArray(calls) ? calls : [calls]) chainCalls.set(c.method, (chainCalls.get(c.method) ?? 0) + 1);
      fetch(chain.url, { method: "POST", headers: { "content-type": "application/json" }, body })
        .then(async (answer) => res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text()))
        .catch((err: unknown) => res.writeHead(502).end(String(err)));
    });
  });
  forwarder = await listen(forwarding);
});

afterAll(async () => {
  // The loop's figures (save to query) for the record.
  console.log(output.split("\n").filter((line) => /^\[dev\] v\d+ (serves|Matchstick)/.test(line)).join("\n"));
  if (dev && dev.exitCode === null && dev.signalCode === null) dev.kill("SIGKILL");
  await chain?.stop();
  await forwarder?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Waits until the loop's output, past `from`, matches `pattern`; fails with the output at the deadline or when the loop exits. */
async function reported(pattern: RegExp, from: number, timeoutMs = 240_000): Promise<{ match: RegExpExecArray; end: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(output.slice(from));
    if (match) return { match, end: from + match.index + match[0].length };
    if (dev?.exitCode !== null || dev?.signalCode !== null) throw new Error(`the dev loop ended:\n${output}`);
    if (Date.now() > deadline) throw new Error(`no ${pattern} in the dev loop's output:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Served {
  deployment: string;
  rows: { id: string; owner: string; spender: string; value: string }[];
}

async function served(): Promise<Served> {
  const response = await fetch(queryUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ _meta { deployment } approvalQueries(first: 1000) { id owner spender value } }" }),
  });
  const body = (await response.json()) as { data: { _meta: { deployment: string }; approvalQueries: Served["rows"] } };
  return { deployment: body.data._meta.deployment, rows: body.data.approvalQueries };
}

const mappingPath = () => join(dir, "src", "mapping.ts");

/** Saves as most editors do, through a temporary file renamed over the old one: a reader never sees half a file. */
async function save(text: string): Promise<void> {
  const tmp = join(dir, "mapping.ts.tmp");
  await writeFile(tmp, text);
  await rename(tmp, mappingPath());
}

describe("npm run dev", () => {
  it("serves each saved mapping change under the same name, keeps the last good version through a broken save, and stops everything on Ctrl-C", async () => {
    const projectNetworks = await readFile(join(projectRoot, "networks.json"), "utf8");
    const ports = { query: await freePort(), admin: await freePort(), ipfs: await freePort(), status: await freePort() };
    queryUrl = `http://127.0.0.1:${ports.query}/subgraphs/name/test/dev`;
    // Node with tsx's loader, not the tsx CLI: the SIGINT below reaches the loop itself, once.
    dev = spawn(
      process.execPath,
      ["--import", "tsx", join(projectRoot, "scripts", "dev.ts"), "--dir", dir, "--data-dir", dataDir, "--approvals", "12", ...Object.entries(ports).flatMap(([k, v]) => [`--${k}-port`, String(v)])],
      { cwd: projectRoot, env: { ...process.env, ETHEREUM_RPC: forwarder.url, SUBGRAPH_NAME: "test/dev", NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    dev.stdout!.on("data", (c: Buffer) => (output += c.toString()));
    dev.stderr!.on("data", (c: Buffer) => (output += c.toString()));

    // v1: the token deployed on this chain, recorded in the copy's networks.json, its approvals indexed.
    let at = (await reported(/\[dev\] watching /, 0)).end;
    const v1 = /\[dev\] v1 serves (Qm\w+) at block \d+/.exec(output)?.[1];
    expect(v1).toBeDefined();
    expect(output).toContain(`Queries (HTTP): ${queryUrl}`);
    const token = (await readNetworks(join(dir, "networks.json"))).localhost?.ApprovalToken?.address ?? "";
    const onChain = await approvalsFromChain(chain.url, token);
    expect(onChain.length).toBe(12);
    let now = await served();
    expect(now.deployment).toBe(v1);
    expect(now.rows).toEqual(onChain.map((a) => ({ id: a.id, owner: a.owner, spender: a.spender, value: a.value.toString() })));

    // The handler now swaps owner and spender.
    const original = await readFile(mappingPath(), "utf8");
    const swapped = original.replace("approval.owner = event.params.owner;", "approval.owner = event.params.spender;").replace("approval.spender = event.params.spender;", "approval.spender = event.params.owner;");
    expect(swapped).not.toBe(original);
    const logsBefore = chainCalls.get("eth_getLogs") ?? 0;
    expect(logsBefore).toBeGreaterThan(0);
    await save(swapped);
    // Version numbers are not asserted: a save the loop read mid-write would be built twice, correctly.
    let report = await reported(/\[dev\] v\d+ serves (Qm\w+) at block \d+: save to query on re-indexed data (\d+\.\d) s \(codegen 0\.0 s/, at);
    at = report.end;
    const v2 = report.match[1];
    expect(v2).not.toBe(v1);
    now = await served();
    expect(now.deployment).toBe(v2);
    expect(now.rows).toEqual(onChain.map((a) => ({ id: a.id, owner: a.spender, spender: a.owner, value: a.value.toString() })));
    // v2 re-indexed every approval from the node's chain cache: no logs asked for again.
    expect(chainCalls.get("eth_getLogs") ?? 0).toBe(logsBefore);
    // The subgraph's Matchstick tests import the mapping, run after the version serves, and catch the swap.
    report = await reported(/\[dev\] v\d+ Matchstick tests FAILED \(approval\.test\.ts\): \d+ passed, [1-9]\d* failed/, at);
    at = report.end;

    // A syntax error: the build fails with the compiler's words; the swapping version keeps serving.
    await save(`${swapped}\nexport function broken(: void {\n`);
    report = await reported(/\[dev\] v\d+: build failed; v\d+ \((Qm\w+)\) keeps serving:\n([\s\S]*?)Failed to compile/, at);
    at = report.end;
    expect(report.match[1]).toBe(v2);
    expect(report.match[2]).toMatch(/ERROR TS\d+: .*\n[\s\S]*in src\/mapping\.ts\(\d+,\d+\)/);
    now = await served();
    expect(now.deployment).toBe(v2);
    expect(now.rows).toEqual(onChain.map((a) => ({ id: a.id, owner: a.spender, spender: a.owner, value: a.value.toString() })));

    // Fixed, with another change (values halved): it serves, from the same URL.
    const halved = `import { BigInt } from "@graphprotocol/graph-ts";\n${original.replace("approval.value = event.params.value;", "approval.value = event.params.value.div(BigInt.fromI32(2));")}`;
    expect(halved).toContain("div(BigInt.fromI32(2))");
    await save(halved);
    report = await reported(/\[dev\] v\d+ serves (Qm\w+) at block \d+: save to query/, at);
    const v4 = report.match[1];
    now = await served();
    expect(now.deployment).toBe(v4);
    expect(now.rows).toEqual(onChain.map((a) => ({ id: a.id, owner: a.owner, spender: a.spender, value: (a.value / 2n).toString() })));
    // Its tests run on the halved mapping (nothing saved meanwhile) and catch the value change.
    report = await reported(/\[dev\] v\d+ Matchstick tests FAILED \(approval\.test\.ts\): \d+ passed, [1-9]\d* failed/, report.end);

    // A trap (an integer division by zero: wasm's own, with no message, unlike an abort): the version fails,
    // the halved one keeps serving, and the loop names the trap's line in the file saved, as does the node for
    // its dashboard. (Not `unreachable()`: binaryen's optimizer folds it with the library's own, whose line
    // the source map then names.)
    at = report.end;
    const trapping = halved.replace("approval.save();", "const logIndex = event.logIndex.toI32();\n  approval.value = BigInt.fromI32(100 / (logIndex - logIndex));\n  approval.save();");
    const trapLine = trapping.split("\n").findIndex((line) => line.includes("100 / (logIndex")) + 1;
    expect(trapLine).toBeGreaterThan(0);
    await save(trapping);
    report = await reported(/\[dev\] v\d+: the new version failed while indexing: [^\n]*; v\d+ \((Qm\w+)\) keeps serving/, at);
    expect(report.match[1]).toBe(v4);
    report = await reported(/\[dev\] v\d+: the mapping of ApprovalToken trapped at (.*)/, at);
    expect(report.match[1]).toMatch(new RegExp(`^\\S*ApprovalHandler \\(src/mapping\\.ts:${trapLine}:\\d+\\)`));
    // The node took the loop's source map: its dashboard places the failed deployment's trap at the same line.
    const overview = (await (await fetch(`http://127.0.0.1:${ports.query}/_workbench/api/overview`)).json()) as { deployments: { errors: { kind: string; location: string | null }[] }[] };
    const fatal = overview.deployments.flatMap((d) => d.errors).filter((e) => e.kind === "fatal");
    expect(fatal.map((e) => e.location)).toEqual([expect.stringMatching(new RegExp(`^\\S*ApprovalHandler \\(src/mapping\\.ts:${trapLine}:\\d+\\)`))]);
    now = await served();
    expect(now.deployment).toBe(v4);

    // Back to the original mapping: the first deployment again, already synced, serves at once; its tests pass.
    at = report.end;
    await save(original);
    report = await reported(/\[dev\] v\d+ serves (Qm\w+) at block \d+: save to query/, at);
    expect(report.match[1]).toBe(v1);
    at = report.end;
    await reported(/\[dev\] v\d+ Matchstick tests passed \(approval\.test\.ts\): [1-9]\d* passed, 0 failed/, at);
    now = await served();
    expect(now.deployment).toBe(v1);
    expect(now.rows).toEqual(onChain.map((a) => ({ id: a.id, owner: a.owner, spender: a.spender, value: a.value.toString() })));

    // The project's own files were never touched.
    expect(await readFile(join(projectRoot, "networks.json"), "utf8")).toBe(projectNetworks);

    // Ctrl-C: a clean stop, and nothing the loop started (graph-cli's process, the reaper) outlives it.
    const below = descendantsOf(dev.pid!);
    expect(below.length).toBeGreaterThan(0);
    const exited = new Promise<number | null>((resolve) => dev!.once("exit", (code) => resolve(code)));
    dev.kill("SIGINT");
    expect(await exited).toBe(0);
    const deadline = Date.now() + 30_000;
    while (below.some(isRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(below.filter(isRunning)).toEqual([]);
  });
});
