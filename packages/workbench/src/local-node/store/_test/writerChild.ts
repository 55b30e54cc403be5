// Child process for the kill test: commits one block of 50 approvals after another into a PGlite
// data dir and prints the committed block number after each commit, until it is killed.
import { createNodeStore } from "../nodeStore.js";
import { OWNER_A, TEST_SCHEMA, approval, block } from "./fixtures.js";

const dir = process.argv[2];
if (!dir) throw new Error("usage: writerChild.ts <dataDir>");
const store = await createNodeStore({ dataDir: dir });
await store.createDeployment({ id: "QmKill", schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
for (let b = 1; ; b++) {
  const changes = Array.from({ length: 50 }, (_, i) => {
    const a = approval(b * 1000 + i, OWNER_A);
    return { op: "set" as const, entityType: "ApprovalQuery", id: a.id, data: a.data };
  });
  await store.transact("QmKill", block(b), changes);
  process.stdout.write(`committed ${b}\n`);
}
