// The dashboard in headless Chromium, on a real Hardhat chain with graph-cli builds deployed to the node:
// it loads from the node alone with no console error and shows each deployment; its numbers are the
// status API's; its progress moves while a catch-up runs; a failed handler's error shows with the source
// line the chain's poisoned approval hit. Any other client asking for `/` still gets graph-node's JSON.
// Screenshots go to .test-artifacts/dashboard/ (gitignored).
import { mkdir, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { Contract } from "ethers";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchHeadlessChromium } from "../../../../../testing/headlessChromium.js";
import { readArtifact } from "../../../../../hardhat/deploy/artifacts.js";
import { connectChain } from "../../../../../hardhat/deploy/signers.js";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { buildSubgraph, type BuiltSubgraph } from "../../lib/subgraphBuild.js";
import { createLocalNode, type LocalNode } from "../index.js";
import { buildFor, chainApprovals, deployWithGraphCli, startChainWithToken, statusOf, waitForHead, waitForStatus, type ChainFixture } from "./harness.js";

vi.setConfig({ testTimeout: 400_000, hookTimeout: 400_000 });

const FAILING = join(projectRoot, "packages", "workbench", "src", "local-node", "e2e", "_test", "failing");
const ARTIFACTS = join(projectRoot, ".test-artifacts", "dashboard");

let fx: ChainFixture;
let node: LocalNode;
let browser: Browser;
let approvalsBuild: BuiltSubgraph;
let failingBuild: BuiltSubgraph;
/** The approvals subgraph from one block later: another deployment, which catches up from scratch. */
let laterBuild: BuiltSubgraph;
let shared: Page;
let slowChain: { url: string; server: Server };
/** What the page did since it last opened the dashboard. */
const watched = { errors: [] as string[], foreign: [] as string[] };

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  fx = await startChainWithToken();
  await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 40, batchSize: 10 });
  // Small runs, and a proxy in front of the chain that answers eth_getLogs 150 ms late: a catch-up of a
  // few thousand approvals takes long enough to watch.
  slowChain = await startSlowChain(fx.chain.url, 150);
  node = await createLocalNode({ ethereumRpc: slowChain.url, ports: { query: 0, admin: 0, ipfs: 0, status: 0, metrics: 0 }, log: () => {}, pollIntervalMs: 100, eventsPerRun: 25 });
  approvalsBuild = await buildFor(fx.token);
  failingBuild = await buildFor(fx.token, FAILING);
  laterBuild = await buildSubgraph({ address: fx.token.proxy, startBlock: fx.token.startBlock + 1, network: "localhost" });
  ({ browser } = await launchHeadlessChromium());
  // One page for all: npm's Chromium runs as one process, which a closed page can take down with it.
  shared = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  shared.on("console", (m) => m.type() === "error" && watched.errors.push(m.text()));
  shared.on("pageerror", (e) => watched.errors.push(e.message));
  shared.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith(node.urls.query) && !url.startsWith(statusBase()) && url !== "about:blank") watched.foreign.push(url);
  });
});
afterAll(async () => {
  await browser?.close();
  await node?.close();
  await new Promise((r) => slowChain?.server.close(r));
  await fx?.stop();
});

/** Forwards JSON-RPC to the chain, holding back each answer that carries an eth_getLogs by `delayMs`. */
async function startSlowChain(target: string, delayMs: number): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      void (async () => {
        const answer = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
        const text = await answer.text();
        if (body.includes('"eth_getLogs"')) await new Promise((r) => setTimeout(r, delayMs));
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(text);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`, server };
}

const statusBase = () => node.urls.status.replace(/\/graphql$/, "");

/** The dashboard opened afresh, with the console errors, page errors and requests off the node since then. */
async function openDashboard(): Promise<{ page: Page; errors: string[]; foreign: string[] }> {
  watched.errors = [];
  watched.foreign = [];
  await shared.goto(`${node.urls.query}/`);
  return { page: shared, errors: watched.errors, foreign: watched.foreign };
}

const card = (page: Page, id: string) => page.locator(`section[data-deployment="${id}"]`);
const fieldText = (page: Page, id: string, name: string) => card(page, id).locator(`[data-field="${name}"]`).first().innerText();

describe("the dashboard", () => {
  it("shows every deployment with the status API's numbers, from the node alone, with no console error", async () => {
    const id = await deployWithGraphCli(approvalsBuild, "e2e/dash", node.urls);
    const status = await waitForHead(statusBase(), "e2e/dash", fx.chain.url);
    expect(status.health).toBe("healthy");

    const { page, errors, foreign } = await openDashboard();
    await card(page, id).waitFor({ timeout: 60_000 });
    // A tick that read the synced status: the page's figures are then the status API's.
    await page.waitForFunction((want) => document.querySelector(`section[data-deployment="${want.id}"] [data-field="latest"]`)?.textContent === want.latest, { id, latest: status.chains[0]!.latestBlock!.number }, { timeout: 30_000 });
    const now = (await statusOf(statusBase(), "e2e/dash"))!;
    expect(await fieldText(page, id, "latest")).toBe(now.chains[0]!.latestBlock!.number);
    expect(await fieldText(page, id, "head")).toBe(now.chains[0]!.chainHeadBlock!.number);
    expect(await fieldText(page, id, "entityCount")).toBe(now.entityCount);
    expect(await fieldText(page, id, "health")).toMatch(/^healthy, synced/);
    expect(await fieldText(page, id, "names")).toContain("e2e/dash (v1)");
    // The profile's one handler ran once per approval on the chain; the entities by type are those approvals.
    const approvals = await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock);
    const profileRow = (await card(page, id).locator('[data-field="profile"] tr').first().locator("td").allInnerTexts()).slice(0, 3);
    expect(profileRow).toEqual(["ApprovalToken", "ApprovalHandler", String(approvals.length)]);
    expect(await card(page, id).locator('[data-field="entityTable"] tr').first().locator("td").allInnerTexts()).toEqual(["ApprovalQuery", String(approvals.length)]);
    expect(await card(page, id).locator("canvas").count()).toBe(1);
    expect(await card(page, id).locator(`a[href="/subgraphs/id/${id}/graphql"]`).count()).toBe(1);
    expect(await page.locator("#status-link").getAttribute("href")).toBe(node.urls.status.endsWith("/graphql") ? node.urls.status : `${node.urls.status}/graphql`);
    // The log shows the node's lines about this deployment.
    await page.selectOption("#log-deployment", id);
    await page.locator("#logs li", { hasText: "synced at block" }).first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(ARTIFACTS, "synced.png"), fullPage: true });
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);

    // A program asking for `/` gets graph-node's answer, as before.
    const plain = await fetch(`${node.urls.query}/`, { headers: { accept: "*/*" } });
    expect(await plain.json()).toEqual({ message: "Access deployed subgraphs by deployment ID at /subgraphs/id/<ID> or by name at /subgraphs/name/<NAME>" });
  });

  it("moves its progress while a catch-up runs", async () => {
    // Many blocks to catch up on, then a new deployment of them.
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 6000, batchSize: 10, seed: 4 });
    const { page, errors } = await openDashboard();
    const id = await deployWithGraphCli(laterBuild, "e2e/dash-progress", node.urls);
    expect(id).not.toBe(await node.store.resolveName("e2e/dash"));
    await card(page, id).waitFor({ timeout: 60_000 });
    // Watched from when the page first shows it (the page asks every second).
    const seen: { latest: number; head: number; share: number }[] = [];
    let shot = false;
    const deadline = Date.now() + 300_000;
    for (;;) {
      const latest = Number(await fieldText(page, id, "latest"));
      const head = Number(await fieldText(page, id, "head"));
      const share = Number(await card(page, id).locator("progress").getAttribute("value"));
      if (Number.isFinite(latest) && Number.isFinite(head) && head > 0) {
        if (seen.at(-1)?.latest !== latest) seen.push({ latest, head, share });
        if (!shot && latest < head && seen.length >= 2) {
          await page.screenshot({ path: join(ARTIFACTS, "catching-up.png"), fullPage: true });
          shot = true;
        }
        if (latest >= head) break;
      }
      if (Date.now() > deadline) throw new Error(`the catch-up never ended on the page: ${JSON.stringify(seen)}`);
      await page.waitForTimeout(200);
    }
    const during = seen.filter((s) => s.latest < s.head);
    expect(during.length, JSON.stringify(seen)).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.latest).toBeGreaterThan(seen[i - 1]!.latest);
      expect(seen[i]!.share).toBeGreaterThanOrEqual(seen[i - 1]!.share);
    }
    expect(seen.at(-1)!.share).toBe(1);
    // The rates were measured while it moved.
    expect(Number((await fieldText(page, id, "events")).split(" · ")[1]!.replace(/,/g, ""))).toBeGreaterThan(0);
    const status = (await statusOf(statusBase(), "e2e/dash-progress"))!;
    await page.waitForFunction((want) => document.querySelector(`section[data-deployment="${want.id}"] [data-field="entityCount"]`)?.textContent === want.count, { id, count: status.entityCount }, { timeout: 30_000 });
    expect(errors).toEqual([]);
  });

  it("shows a failed handler's error with its source line", async () => {
    const id = await deployWithGraphCli(failingBuild, "e2e/dash-failing", node.urls);
    // A catch-up of the whole chain the earlier tests grew (about 600 blocks, thousands of approvals): in a
    // fresh-clone run beside the other suites it took over a minute.
    await waitForHead(statusBase(), "e2e/dash-failing", fx.chain.url, 240_000);
    const { provider, signers } = await connectChain(fx.chain.url);
    const token = new Contract(fx.token.proxy, (await readArtifact("ApprovalToken")).abi, signers[3]);
    const tx = (await token.getFunction("approve")("0x0000000000000000000000000000000000000013", 13n)) as { wait(): Promise<{ blockNumber: number }> };
    const failingBlock = (await tx.wait()).blockNumber;
    provider.destroy();
    const failed = await waitForStatus(statusBase(), "e2e/dash-failing", (s) => s.health === "failed", 120_000);

    // Where the fixture throws on 13, read from its source.
    const source = (await readFile(join(FAILING, "src", "mapping.as.ts"), "utf8")).split("\n");
    const line = source.findIndex((l) => l.includes("throw new Error")) + 1;
    const column = source[line - 1]!.indexOf("throw") + 1;
    expect(line).toBeGreaterThan(0);

    const { page, errors } = await openDashboard();
    const item = card(page, id).locator(".errors li.fatal");
    await item.waitFor({ timeout: 60_000 });
    expect(await item.locator(".location").innerText()).toBe(`at src/mapping.as.ts:${line}:${column}`);
    const text = await item.innerText();
    expect(text).toContain(`at block ${failingBlock}`);
    expect(text).toContain("handler ApprovalHandler");
    expect(text).toContain(failed.fatalError!.message);
    expect(await fieldText(page, id, "health")).toMatch(/^failed/);
    await page.screenshot({ path: join(ARTIFACTS, "failed.png"), fullPage: true });
    expect(errors).toEqual([]);
  });
});
