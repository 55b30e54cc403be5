// The node command with graph-node's config.toml (`--config`): a file with a mistake stops it before
// anything starts, saying what is wrong; a graph-node operator's file with two providers for one network
// starts it, its key never printed, and a deployment indexes the chain's approvals through it.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import { freePort } from "../../lib/freePort.js";
import { buildFor, byId, chainApprovals, deployWithGraphCli, freePorts, queryAllApprovals, startChainWithToken, waitForHead, type ChainFixture } from "./harness.js";

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const KEY = "cfgk3y0123456789abcdef";
let fx: ChainFixture;
let dir: string;

beforeAll(async () => {
  fx = await startChainWithToken();
  await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 30, batchSize: 5 });
  dir = await mkdtemp(join(tmpdir(), "node-config-"));
});
afterAll(async () => {
  await fx?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The node command with `args`; resolves with its output once `until` shows in it, or once it exits. */
function runNode(args: string[], until: RegExp): Promise<{ output: string; exitCode: number | null; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(projectRoot, "packages", "workbench", "src", "commands", "node.ts"), ...args], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: "", ETHEREUM_RPC: "", CFG_TEST_KEY: KEY },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  return new Promise((resolve) => {
    const check = () => {
      if (until.test(output)) resolve({ output, exitCode: null, stop });
    };
    child.stdout!.on("data", (c: Buffer) => ((output += c.toString()), check()));
    child.stderr!.on("data", (c: Buffer) => ((output += c.toString()), check()));
    child.once("exit", (code) => resolve({ output, exitCode: code, stop }));
  });
}

describe("subgraph-workbench node --config", () => {
  it("refuses a file graph-node would refuse, saying what is wrong, before it starts anything", async () => {
    const file = join(dir, "bad.toml");
    await writeFile(file, `[chains]\ningestor = "default"\n[chains.localhost]\nshard = "primary"\nprovider = [ { label = "a", url = "${fx.chain.url}", features = ["turbo"] } ]\n`);
    const run = await runNode(["--config", file, "--data-dir", join(dir, "bad-data")], /queries http/);
    await run.stop();
    expect(run.exitCode).not.toBe(0);
    expect(run.output).toMatch(/illegal feature `turbo`/);
    expect(run.output).not.toMatch(/queries http/);
  });

  it("indexes through a graph-node operator's file with two providers for one network, its key never shown", async () => {
    const file = join(dir, "config.toml");
    const deadPort = await freePort();
    await writeFile(
      file,
      [
        "[store]\n[store.primary]\nconnection = \"postgresql://graph:graph@127.0.0.1/graph\"\npool_size = 10",
        "[chains]\ningestor = \"default\"",
        "[chains.localhost]\nshard = \"primary\"\nprovider = [",
        `  { label = "first", url = "${fx.chain.url}/\${CFG_TEST_KEY}", features = ["archive", "traces"] },`,
        `  { label = "second", details = { type = "web3", url = "http://127.0.0.1:${deadPort}", features = [] } },`,
        "]",
      ].join("\n"),
    );
    const ports = await freePorts();
    const run = await runNode(
      ["--config", file, "--data-dir", join(dir, "good-data"), "--query-port", String(ports.query), "--admin-port", String(ports.admin), "--ipfs-port", String(ports.ipfs), "--status-port", String(ports.status), "--metrics-port", String(await freePort()), "--rpc-rate", "200"],
      /queries http/,
    );
    try {
      expect(run.exitCode, run.output).toBeNull();
      expect(run.output).toMatch(/indexing from localhost \(first\): .*localhost \(second\): /);
      const urls = { admin: `http://127.0.0.1:${ports.admin}`, ipfs: `http://127.0.0.1:${ports.ipfs}` };
      await deployWithGraphCli(await buildFor(fx.token), "config/approvals", urls);
      const status = await waitForHead(`http://127.0.0.1:${ports.status}`, "config/approvals", fx.chain.url, 120_000);
      expect(status.health).toBe("healthy");
      const onChain = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
      expect(await queryAllApprovals(`http://127.0.0.1:${ports.query}/subgraphs/name/config/approvals`)).toEqual(onChain);
      const providers = await (await fetch(`http://127.0.0.1:${ports.status}/providers`)).text();
      expect(providers).toContain('"label":"first"');
      expect(providers + run.output).not.toContain(KEY);
    } finally {
      await run.stop();
    }
  });
});
