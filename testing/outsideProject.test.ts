// The workbench as a user gets it: `npm pack` of packages/workbench, installed with npm into a subgraph
// project outside the workspace (its own package.json, graph-cli, graph-ts and matchstick-as, files
// shaped as `graph init` writes them), with no network. In that folder, through `npx subgraph-workbench`:
// the Matchstick tests pass and a failing one exits 1; the gnd test JSON file passes; the node serves what
// the unmodified graph-cli deploys, and its entities equal the chain's logs; the dev loop re-indexes after
// an edit to the mapping; parity with the real graph-node holds on the project's own scenario.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Interface, JsonRpcProvider, id as topicOf } from "ethers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort } from "subgraph-workbench/lib/freePort";
import { startHardhatNode, type HardhatNode } from "../hardhat/chain/index.js";
import { deployApprovalToken, readArtifact, sendApprovals } from "../hardhat/deploy/index.js";
import { projectRoot } from "../hardhat/projectRoot.js";
import { installScratchProject } from "./_test/scratchInstall.js";

vi.setConfig({ testTimeout: 600_000, hookTimeout: 900_000 });
const run = promisify(execFile);

let chain: HardhatNode;
let dir: string;
let packDir: string;
let token: string;
const children: ChildProcess[] = [];

interface Row {
  id: string;
  owner: string;
  spender: string;
  value: string;
}

/** What a correct index of the project's mapping holds: one row per Approval log, id tx hash ++ log index (i32, little-endian). */
async function rowsFromChain(transform: (value: bigint) => bigint = (v) => v): Promise<Row[]> {
  const provider = new JsonRpcProvider(chain.url, undefined, { staticNetwork: true });
  const abi = new Interface((await readArtifact("ApprovalToken")).abi);
  const logs = await provider.getLogs({ address: token, topics: [topicOf("Approval(address,address,uint256)")], fromBlock: 0, toBlock: "latest" });
  provider.destroy();
  return logs
    .map((log) => {
      const parsed = abi.parseLog(log)!;
      const index = Buffer.alloc(4);
      index.writeInt32LE(log.index);
      return {
        id: `${log.transactionHash.toLowerCase()}${index.toString("hex")}`,
        owner: (parsed.args.getValue("owner") as string).toLowerCase(),
        spender: (parsed.args.getValue("spender") as string).toLowerCase(),
        value: transform(parsed.args.getValue("value") as bigint).toString(),
      };
    })
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

async function served(queryUrl: string): Promise<{ deployment: string; rows: Row[] }> {
  const response = await fetch(queryUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ _meta { deployment } approvals(first: 1000, orderBy: id) { id owner spender value } }" }),
  });
  const body = (await response.json()) as { data?: { _meta: { deployment: string }; approvals: Row[] }; errors?: unknown };
  if (!body.data) throw new Error(`query failed: ${JSON.stringify(body)}`);
  return { deployment: body.data._meta.deployment, rows: body.data.approvals };
}

/** `npx <args>` in the project folder. */
function npx(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["--no-install", ...args], { cwd: dir, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** A long-running `npx subgraph-workbench ...`; `reported` waits for its output to match. */
function startCommand(args: string[]) {
  // The installed bin itself, not through npx: Ctrl-C (SIGINT) must reach the command, as from a terminal.
  const child = spawn(join(dir, "node_modules", ".bin", "subgraph-workbench"), args, { cwd: dir, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const reported = async (pattern: RegExp, from = 0, timeoutMs = 300_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(output.slice(from));
      if (match) return { match, end: from + match.index + match[0].length };
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`subgraph-workbench ${args[0]} ended:\n${output}`);
      if (Date.now() > deadline) throw new Error(`no ${pattern} in the output of subgraph-workbench ${args[0]}:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGINT");
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(killer);
    expect(child.signalCode, `subgraph-workbench ${args[0]} did not stop on SIGINT:\n${output}`).toBeNull();
  };
  return { reported, stop, output: () => output };
}

async function freePorts() {
  return { query: await freePort(), admin: await freePort(), ipfs: await freePort(), status: await freePort() };
}
const portFlags = (ports: Awaited<ReturnType<typeof freePorts>>) => Object.entries(ports).flatMap(([k, v]) => [`--${k}-port`, String(v)]);

beforeAll(async () => {
  packDir = await mkdtemp(join(tmpdir(), "workbench-pack-"));
  // `npm pack` builds dist/ first (prepack), as a publish would.
  const packed = await run("npm", ["pack", "--pack-destination", packDir, "--json", "--loglevel=error"], { cwd: join(projectRoot, "packages", "workbench"), maxBuffer: 64 * 1024 * 1024 });
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];

  dir = await mkdtemp(join(tmpdir(), "outside-subgraph-"));
  await cp(join(projectRoot, "testing", "_test", "outside-subgraph"), dir, { recursive: true });
  await cp(join(projectRoot, "abis", "ApprovalToken.json"), join(dir, "abis", "ApprovalToken.json"));
  // The contracts the parity scenario deploys, as a project keeps its build artifacts.
  await mkdir(join(dir, "contracts"));
  for (const name of ["ApprovalToken", "DelegateProxy"]) await writeFile(join(dir, "contracts", `${name}.json`), JSON.stringify(await readArtifact(name)));
  chain = await startHardhatNode();
  const deployed = await deployApprovalToken({ rpcUrl: chain.url });
  token = deployed.proxy;
  await writeFile(join(dir, "networks.json"), JSON.stringify({ localhost: { ApprovalToken: { address: token, startBlock: deployed.startBlock } } }, null, 2));
  await sendApprovals({ rpcUrl: chain.url, token, count: 7 });

  await installScratchProject({
    workspace: projectRoot,
    projectDir: dir,
    // ethers for the project's own parity scenario, as a user adds their chain library.
    fromWorkspace: ["@graphprotocol/graph-cli", "@graphprotocol/graph-ts", "matchstick-as", "ethers"],
    tarballs: { "subgraph-workbench": { path: join(packDir, filename), workspaceFolder: "packages/workbench" } },
    packageJson: { license: "UNLICENSED", scripts: { codegen: "graph codegen", build: "graph build", test: "subgraph-workbench test" } },
  });
  const codegen = await npx(["graph", "codegen"]);
  if (codegen.code !== 0) throw new Error(`graph codegen failed:\n${codegen.output}`);
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await chain?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  if (packDir) await rm(packDir, { recursive: true, force: true });
});

describe("subgraph-workbench installed in a project of its own", () => {
  it("is the packed package, not the workspace's, with its command and version", async () => {
    const installed = JSON.parse(await readFile(join(dir, "node_modules", "subgraph-workbench", "package.json"), "utf8")) as { version: string };
    const own = JSON.parse(await readFile(join(projectRoot, "packages", "workbench", "package.json"), "utf8")) as { version: string };
    expect(installed.version).toBe(own.version);
    const version = await npx(["subgraph-workbench", "--version"]);
    expect(version).toEqual({ code: 0, output: `${own.version}\n` });
    const help = await npx(["subgraph-workbench", "dev", "--help"]);
    expect(help.code).toBe(0);
    expect(help.output).toContain("Usage: subgraph-workbench dev");
  });

  it("runs the project's Matchstick tests: exit 0 when they pass, 1 when one fails", async () => {
    const passing = await npx(["subgraph-workbench", "test"]);
    expect(passing.output).toMatch(/All 1 tests? passed!/);
    expect(passing.code).toBe(0);

    const test = join(dir, "tests", "approval-token.test.ts");
    const original = await readFile(test, "utf8");
    await writeFile(test, original.replace('"value", "234"', '"value", "235"'));
    try {
      const failing = await npx(["subgraph-workbench", "test", "-r"]);
      expect(failing.output).toMatch(/1 failed, 0 passed, 1 total/);
      expect(failing.output).toContain('Expected field \'value\' to equal \'235\', but was \'234\' instead.');
      expect(failing.code).toBe(1);
    } finally {
      await writeFile(test, original);
    }
  });

  it("runs the project's gnd test JSON file on the local node, with gnd test's verdict", async () => {
    // Before any graph deploy --network writes the token's address into subgraph.yaml: the file's events
    // come from the manifest's own address.
    const json = await npx(["subgraph-workbench", "test:json"]);
    expect(json.output).toContain("Tests: 1 passed, 0 failed");
    expect(json.code).toBe(0);
  });

  it("serves what graph create and graph deploy send it, and the entities equal the chain's logs", async () => {
    const ports = await freePorts();
    const node = startCommand(["node", "--ethereum-rpc", chain.url, "--data-dir", join(dir, ".data", "node"), ...portFlags(ports)]);
    try {
      await node.reported(/queries http/);
      const name = "local/outside";
      const create = await npx(["graph", "create", "--node", `http://127.0.0.1:${ports.admin}`, name]);
      expect(create.code, create.output).toBe(0);
      const deploy = await npx(["graph", "deploy", "--node", `http://127.0.0.1:${ports.admin}`, "--ipfs", `http://127.0.0.1:${ports.ipfs}`, "--network", "localhost", "--version-label", "v1", name]);
      expect(deploy.code, deploy.output).toBe(0);
      const queryUrl = `http://127.0.0.1:${ports.query}/subgraphs/name/${name}`;
      const expected = await rowsFromChain();
      expect(expected.length).toBe(7);
      const deadline = Date.now() + 120_000;
      let now = await served(queryUrl).catch(() => null);
      while ((now?.rows.length ?? 0) < expected.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        now = await served(queryUrl).catch(() => null);
      }
      expect(now?.rows).toEqual(expected);
    } finally {
      await node.stop();
    }
  });

  it("re-indexes after an edit to the mapping in the dev loop", async () => {
    const ports = await freePorts();
    const dev = startCommand(["dev", "--ethereum-rpc", chain.url, "--name", "local/outside-dev", "--data-dir", join(dir, ".data", "dev"), ...portFlags(ports)]);
    try {
      const queryUrl = `http://127.0.0.1:${ports.query}/subgraphs/name/local/outside-dev`;
      let at = (await dev.reported(/\[dev\] watching /)).end;
      const v1 = await served(queryUrl);
      expect(v1.rows).toEqual(await rowsFromChain());

      const mapping = join(dir, "src", "approval-token.ts");
      const original = await readFile(mapping, "utf8");
      const doubled = original.replace("entity.value = event.params.value;", "entity.value = event.params.value.times(BigInt.fromI32(2));").replace('import { Approval } from "../generated/schema";', 'import { Approval } from "../generated/schema";\nimport { BigInt } from "@graphprotocol/graph-ts";');
      expect(doubled).toContain("times(BigInt.fromI32(2))");
      // As editors save: a new file renamed over the old one.
      await writeFile(`${mapping}.tmp`, doubled);
      await rename(`${mapping}.tmp`, mapping);
      const report = await dev.reported(/\[dev\] v\d+ serves (Qm\w+) at block \d+: save to query on re-indexed data/, at);
      at = report.end;
      const v2 = await served(queryUrl);
      expect(v2.deployment).toBe(report.match[1]);
      expect(v2.deployment).not.toBe(v1.deployment);
      expect(v2.rows).toEqual(await rowsFromChain((v) => v * 2n));
    } finally {
      await dev.stop();
    }
  });

  // graph-node is on npm for linux-x64 only.
  it.runIf(process.platform === "linux" && process.arch === "x64")("compares the subgraph on the local node and on the real graph-node with the project's scenario", async () => {
    const parity = await npx(["subgraph-workbench", "parity", "--scenario", "scripts/parityScenario.mjs", "--ethereum-rpc", chain.url]);
    expect(parity.output).toContain("parity: no open differences");
    expect(parity.output).toMatch(/\d+ comparisons/);
    expect(parity.code).toBe(0);
  });
});
