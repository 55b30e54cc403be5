// File data sources: posts on chain name JSON metadata files on IPFS, and a file/ipfs template reads
// each one. Covered: create and createWithContext, two files created in one block, the same file named
// twice (one data source) and by another form of its path (`ipfs://<cid>`: the same source, so no new
// data source, and a post whose reference dangles), a file that is not JSON, a CID no IPFS node has
// (it waits for ever), a path that is no CID (ignored), isolation both ways (the chain's handler cannot
// load the file's entity, the file's handler starts from an empty store), and an immutable and a
// mutable entity type with a causality region. Then a reorg orphans the block that created the last
// file data source (with a context); the new branch names the same file without one, and a new file.
import { join } from "node:path";
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import { deployContentRegistry, publishPosts } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import { postGraphQL } from "subgraph-workbench/parity";
import type { ParityCase } from "subgraph-workbench/parity";

/** A well-formed CID of content that nothing here ever adds to IPFS. */
const NEVER_ADDED = "QmNLei78zWmzUdbeRB3CiUfAizWUrbeeZh5K1rhAQKCh51";

export function filesCase(): ParityCase {
  let expectedFiles = 0;
  let snapshot = "";
  let registryAddress = "";
  let late = "";
  return {
    name: "files",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "files"),
    async scenario({ chainUrl, addFile }) {
      const text = (s: string) => new TextEncoder().encode(s);
      const json = (value: unknown) => text(JSON.stringify(value));
      const first = await addFile(json({ title: "First post", tags: ["intro", "hello"] }));
      const second = await addFile(json({ title: "Second", tags: [] }));
      const withContext = await addFile(json({ title: "With a context", tags: ["context"] }));
      const oddTitle = await addFile(json({ title: 42, tags: ["a", 1, "b"] }));
      const plain = await addFile(text("plain text, not JSON"));
      late = await addFile(json({ title: "Later, with a context or not", tags: ["late"] }));
      expectedFiles = new Set([first, second, withContext, oddTitle, plain, late]).size;
      const { registry, startBlock } = await deployContentRegistry({ rpcUrl: chainUrl });
      registryAddress = registry;
      await publishPosts({
        rpcUrl: chainUrl,
        registry,
        groups: [
          { cids: [first], withContext: false },
          { cids: [second], withContext: false },
          { cids: [withContext], withContext: true, from: 1 },
          { cids: [oddTitle, plain], withContext: false },
          { cids: [first], withContext: false },
          { cids: [`ipfs://${second}`], withContext: false },
          { cids: [NEVER_ADDED], withContext: false },
          { cids: ["not-a-cid"], withContext: false },
        ],
      });
      snapshot = await createJsonRpcClient({ url: chainUrl }).request<string>("evm_snapshot");
      // Orphaned by `afterwards`.
      await publishPosts({ rpcUrl: chainUrl, registry, groups: [{ cids: [late], withContext: true }] });
      return { address: registry, startBlock, dataSource: "ContentRegistry" };
    },
    async afterwards({ chainUrl, addFile }) {
      const rpc = createJsonRpcClient({ url: chainUrl });
      await rpc.request("evm_revert", [snapshot]);
      for (let i = 0; i < 2; i++) await rpc.request("evm_mine", []);
      const fresh = await addFile(new TextEncoder().encode(JSON.stringify({ title: "On the new branch", tags: ["reorg"] })));
      await publishPosts({ rpcUrl: chainUrl, registry: registryAddress, groups: [{ cids: [late, fresh], withContext: false }] });
      expectedFiles += 1;
    },
    // graph-node handles a fetched file with the next block it processes, whenever its fetch ends; the
    // local node handles it in the block that created it. New blocks until graph-node has every file.
    async settle({ chainUrl, graphNode }) {
      const rpc = createJsonRpcClient({ url: chainUrl });
      const deadline = Date.now() + 90_000;
      for (;;) {
        // "Metadata" has no plural form of its own, so graph-node names the collection `..._collection`.
        const answer = await postGraphQL(graphNode.queryUrl, "{ postMetadata_collection(first: 1000) { id } }");
        // Before its first block graph-node answers an error ("has not started syncing yet").
        const said = answer.errors?.map((e) => e.message).join("; ") ?? "";
        const count = (answer.data as { postMetadata_collection?: unknown[] } | undefined)?.postMetadata_collection?.length ?? 0;
        if (count >= expectedFiles) return;
        if (Date.now() > deadline) throw new Error(`graph-node processed ${count} of ${expectedFiles} files within 90 s${said ? ` (it said: ${said})` : ""}`);
        await rpc.request("evm_mine", []);
        await new Promise((r) => setTimeout(r, 500));
      }
    },
  };
}
