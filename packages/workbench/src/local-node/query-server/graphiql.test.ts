// GraphiQL in headless Chromium (the system's, else the npm build): the bundled page loads with no network beyond
// 127.0.0.1, runs a query against the query server, and shows the result.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchHeadlessChromium } from "../../../../../testing/headlessChromium.js";
import { createNodeStore } from "../store/nodeStore.js";
import type { NodeStore } from "../store/types.js";
import { OWNER_A, TEST_SCHEMA, approval, block } from "../store/_test/fixtures.js";
import { createQueryServer } from "./queryServer.js";
import type { RunningServer } from "../../lib/http/index.js";

const DEP = "QmGraphiqlTest";

describe("GraphiQL page", () => {
  let store: NodeStore;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    store = await createNodeStore({});
    await store.createDeployment({ id: DEP, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    const a = approval(7, OWNER_A);
    await store.transact(DEP, block(4), [{ op: "set", entityType: "ApprovalQuery", id: a.id, data: a.data }]);
    await store.createSubgraph("me/approvals");
    await store.setPendingVersion("me/approvals", DEP, null);
    server = await createQueryServer({ store, port: 0 });
    ({ browser } = await launchHeadlessChromium());
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  it("loads from the node itself, runs a query and shows the result", async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(server.url)) foreign.push(r.url());
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const query = "{ approvalQueries { id owner value } }";
    await page.goto(`${server.url}/subgraphs/name/me/approvals?query=${encodeURIComponent(query)}`);
    expect(page.url()).toContain("/subgraphs/name/me/approvals/graphql");
    await page.waitForSelector(".graphiql-container", { timeout: 60_000 });
    await page.click(".graphiql-execute-button");
    const result = page.locator(".result-window");
    await result.getByText("0x00000007").first().waitFor({ timeout: 60_000 });
    const text = (await result.innerText()).replace(/\s+/g, " ");
    expect(text).toContain('"value": "7000000000000000000"');
    expect(text).toContain(`"owner": "${OWNER_A}"`);
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });
});
