import { describe, expect, it } from "vitest";
import { earliestAfterWrites } from "./pruning.js";
import type { PruningPolicy } from "./types.js";
import { describeBackends, useStore } from "./_test/backends.js";
import { OWNER_A, TEST_SCHEMA, account, approval, block } from "./_test/fixtures.js";

const GND: PruningPolicy = { reorgThreshold: 10, slackFactor: 1.2 };
const balance = (entity: Map<string, unknown> | null) => (entity?.get("balance") as { value: bigint } | undefined)?.value;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("earliestAfterWrites (graph-node's prune trigger and request)", () => {
  it("prunes once a block passes earliest + history × slack, to block − history", () => {
    // history 20: 1 + 24 = 25, so block 26 prunes to 6; then 6 + 24 = 30, block 31 prunes to 11; 36 to 16.
    expect(earliestAfterWrites(GND, 20, 1, range(2, 25))).toBe(1);
    expect(earliestAfterWrites(GND, 20, 1, range(2, 26))).toBe(6);
    expect(earliestAfterWrites(GND, 20, 1, range(2, 35))).toBe(11);
    expect(earliestAfterWrites(GND, 20, 1, range(2, 40))).toBe(16);
    // Blocks written one batch at a time give what they give one by one.
    expect(earliestAfterWrites(GND, 20, earliestAfterWrites(GND, 20, 1, range(2, 33)), range(34, 40))).toBe(16);
  });

  it("never prunes history at or below the reorg threshold, nor `never`", () => {
    expect(earliestAfterWrites(GND, 10, 0, range(1, 200))).toBe(0);
    expect(earliestAfterWrites(GND, 2147483647, 0, range(1, 200))).toBe(0);
    // 11 blocks: every third block from 14 on moves it up by three, the last at 200.
    expect(earliestAfterWrites(GND, 11, 0, range(1, 200))).toBe(189);
  });
});

describeBackends("pruning", (makeBackend) => {
  const open = useStore(makeBackend, { pruning: GND });

  it("keeps history_blocks of history: old versions go, the earliest block moves, immutable rows stay", async () => {
    const id = "QmPruneKeeps";
    const created = await open().createDeployment({ id, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 3, manifest: "m", historyBlocks: 12 });
    expect(created).toMatchObject({ earliestBlock: 2, historyBlocks: 12 });
    // Blocks 3..30 one at a time: alice's balance is the block number, and one approval per block.
    for (const n of range(3, 30)) {
      const a = approval(n, OWNER_A, "alice");
      await open().transact(id, block(n), [
        { op: "set", entityType: "Account", id: "alice", data: account("alice", "Alice", BigInt(n)) },
        { op: "set", entityType: "ApprovalQuery", id: a.id, data: a.data },
      ]);
    }
    // 2 + 14.4 < 17: block 17 prunes to 5; 5 + 14.4 < 20: block 20 prunes to 8; then 23 → 11, 26 → 14, 29 → 17.
    expect((await open().getDeployment(id))?.earliestBlock).toBe(17);
    expect(balance(await open().getEntity(id, "Account", "alice", 17))).toBe(17n);
    expect(balance(await open().getEntity(id, "Account", "alice"))).toBe(30n);
    // Versions that ended by block 17 are gone (the store itself answers nothing there).
    expect(await open().getEntity(id, "Account", "alice", 16)).toBeNull();
    expect(await open().entityCount(id)).toBe(1 + 28);
    expect(await open().getEntity(id, "ApprovalQuery", approval(3, OWNER_A).id)).not.toBeNull();
  });

  it("prunes nothing for a deployment that keeps all history", async () => {
    const id = "QmPruneNever";
    await open().createDeployment({ id, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 0, manifest: "m" });
    await open().transactBlocks(id, range(1, 60).map((n) => ({ block: block(n), changes: [{ op: "set", entityType: "Account", id: "bob", data: account("bob", "Bob", BigInt(n)) }] })));
    expect(await open().getDeployment(id)).toMatchObject({ earliestBlock: 0, historyBlocks: 2147483647 });
    expect(balance(await open().getEntity(id, "Account", "bob", 1))).toBe(1n);
  });

  it("prunes within one batch of blocks as block by block, and refuses a revert below pruned history", async () => {
    const id = "QmPruneBatch";
    await open().createDeployment({ id, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m", historyBlocks: 12 });
    await open().transactBlocks(id, range(1, 40).map((n) => ({ block: block(n), changes: [{ op: "set", entityType: "Account", id: "carol", data: account("carol", "Carol", BigInt(n)) }] })));
    expect((await open().getDeployment(id))?.earliestBlock).toBe(earliestAfterWrites(GND, 12, 0, range(1, 40)));
    const earliest = (await open().getDeployment(id))?.earliestBlock ?? 0;
    await expect(open().revertTo(id, block(earliest - 1))).rejects.toThrow(`cannot revert deployment ${id} to block ${earliest - 1}: it keeps 12 blocks of history (indexerHints.prune) and has pruned everything before block ${earliest}`);
    // Nothing of the refused revert happened.
    expect((await open().getDeployment(id))?.latestBlock?.number).toBe(40);
    await open().revertTo(id, block(earliest + 1));
    expect(balance(await open().getEntity(id, "Account", "carol"))).toBe(BigInt(earliest + 1));
  });
});
