// File data sources on the local node alone: posts on a real chain name JSON files, a file/ipfs
// template reads them from the node's IPFS. One file is not there when its data source is created; the
// node is closed and opened again on the same data, the file is added, and it is processed with a later
// block, once; files processed before the restart are not processed again. Entities are checked against
// the chain's own posts and the files' own contents, on PGlite and on Postgres.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHardhatNode, type HardhatNode } from "../../../../../hardhat/chain/index.js";
import { deployContentRegistry, publishPosts, readPosts } from "../../../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { buildSubgraph, type BuiltSubgraph } from "../../lib/subgraphBuild.js";
import { createIpfsStore } from "../ipfs/index.js";
import { createLocalNode, type LocalNode } from "../index.js";
import { backends, blockNumber, deployWithGraphCli, graphql, rpc, startNode, waitForHead, type NodeFixture } from "./harness.js";

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const FILES = {
  first: { title: "First", tags: ["a", "b"] },
  late: { title: "Added after its data source", tags: ["late"] },
  context: { title: "With a context", tags: [] },
};

let chain: HardhatNode;
/** The CIDs of FILES, computed before any node holds them. */
const cids: Record<keyof typeof FILES, string> = { first: "", late: "", context: "" };

beforeAll(async () => {
  chain = await startHardhatNode();
  const scratch = await createIpfsStore();
  for (const key of Object.keys(FILES) as (keyof typeof FILES)[]) cids[key] = await scratch.add(encode(FILES[key]));
  await scratch.close();
});

/** A registry of its own per backend (the chain is shared), and the subgraph built for it. */
async function registryAndBuild(): Promise<{ registry: string; built: BuiltSubgraph }> {
  const { registry, startBlock } = await deployContentRegistry({ rpcUrl: chain.url });
  const built = await buildSubgraph({ projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "files"), address: registry, startBlock, network: "localhost", dataSource: "ContentRegistry" });
  return { registry, built };
}
afterAll(async () => {
  await chain?.stop();
});

interface MetadataRow {
  id: string;
  title: string;
  tags: string[];
  bytes: number;
  sawItself: boolean;
  poster: string | null;
}

async function metadata(queryUrl: string, block?: number): Promise<MetadataRow[]> {
  const at = block === undefined ? "" : `, block: { number: ${block} }`;
  const res = await graphql<{ r: MetadataRow[] }>(queryUrl, `{ r: postMetadata_collection(first: 100, orderBy: id${at}) { id title tags bytes sawItself poster } }`);
  if (res.errors) throw new Error(JSON.stringify(res.errors));
  return res.data!.r;
}

describe.each(backends())("file data sources on %s", (backend) => {
  let fixture: NodeFixture | undefined;
  let reopened: LocalNode | undefined;
  afterAll(async () => {
    await reopened?.close();
    await fixture?.stop();
  });

  it("processes each file once, waits for a missing one across a restart, and matches the chain and the files", async () => {
    const { registry, built } = await registryAndBuild();
    fixture = await startNode(chain.url, backend);
    const name = `e2e/files-${backend}`;
    const query = (node: LocalNode) => `${node.urls.query}/subgraphs/name/${name}`;
    const status = (node: LocalNode) => node.urls.status.replace(/\/graphql$/, "");
    await fixture.node.ipfs.add(encode(FILES.first));
    await fixture.node.ipfs.add(encode(FILES.context));
    const [, lateBlock] = await publishPosts({
      rpcUrl: chain.url,
      registry,
      groups: [
        { cids: [cids.first], withContext: false },
        { cids: [cids.late], withContext: false },
        { cids: [cids.context], withContext: true, from: 1 },
      ],
    });
    await deployWithGraphCli(built, name, { admin: fixture.node.urls.admin, ipfs: fixture.node.urls.ipfs });
    expect((await waitForHead(status(fixture.node), name, chain.url)).health).toBe("healthy");

    const posts = await readPosts({ rpcUrl: chain.url, registry });
    const postRows = await graphql<{ posts: { id: string; cid: string; author: string; sawMetadata: boolean; metadata: { id: string } | null }[] }>(
      query(fixture.node),
      "{ posts(first: 100, orderBy: id) { id cid author sawMetadata metadata { id } } }",
    );
    expect(postRows.data!.posts.map((p) => ({ id: p.id, cid: p.cid, author: p.author }))).toEqual(
      posts.map((p) => ({ id: String(p.id), cid: p.cid, author: p.author })).sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    // The chain's handler never sees a file's entity; queries join across regions.
    expect(postRows.data!.posts.every((p) => !p.sawMetadata)).toBe(true);
    expect(postRows.data!.posts.filter((p) => p.metadata).map((p) => p.cid).sort()).toEqual([cids.first, cids.context].sort());

    const author1 = posts.find((p) => p.cid === cids.context)!.author;
    const expectRow = (key: keyof typeof FILES, poster: string | null): MetadataRow => ({
      id: cids[key],
      title: FILES[key].title,
      tags: FILES[key].tags,
      bytes: encode(FILES[key]).length,
      sawItself: false,
      poster,
    });
    expect(await metadata(query(fixture.node))).toEqual([expectRow("first", null), expectRow("context", author1)].sort((a, b) => (a.id < b.id ? -1 : 1)));

    // Closed and opened again on the same data; the missing file arrives, and a new block is indexed.
    await fixture.node.close();
    reopened = await createLocalNode({
      ethereumRpc: chain.url,
      dataDir: fixture.dataDir,
      ...(fixture.databaseUrl ? { databaseUrl: fixture.databaseUrl } : {}),
      ports: { query: 0, admin: 0, ipfs: 0, status: 0 },
      log: (line) => fixture!.logs.push(line),
      pollIntervalMs: 100,
    });
    expect(await reopened.ipfs.add(encode(FILES.late))).toBe(cids.late);
    // A block without any trigger: the waiting file is processed with it all the same.
    await rpc(chain.url, "evm_mine", []);
    const laterBlock = await blockNumber(chain.url);
    expect((await waitForHead(status(reopened), name, chain.url)).health).toBe("healthy");

    const after = await metadata(query(reopened));
    expect(after).toEqual([expectRow("first", null), expectRow("late", null), expectRow("context", author1)].sort((a, b) => (a.id < b.id ? -1 : 1)));
    // Processed with a block after the one that created it (it was not there then).
    expect((await metadata(query(reopened), lateBlock!)).map((m) => m.id)).not.toContain(cids.late);
    expect((await metadata(query(reopened), laterBlock)).map((m) => m.id)).toContain(cids.late);
    await publishPosts({ rpcUrl: chain.url, registry, groups: [{ cids: [cids.first], withContext: false }] });
    expect((await waitForHead(status(reopened), name, chain.url)).health).toBe("healthy");
    // Each file ran its handler once: the mutable FileSeen counts to 1, and the first file's post in the
    // new block created no second data source.
    const seen = await graphql<{ fileSeens: { id: string; count: number }[] }>(query(reopened), "{ fileSeens(first: 100) { id count } }");
    expect(seen.data!.fileSeens.map((s) => s.count)).toEqual([1, 1, 1]);
  });
});
