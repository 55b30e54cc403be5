// One node per data folder: a second node on the same folder is refused, naming the holder; the folder
// is free again once the first closes, or when its holder died without closing (SIGKILL).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLocalNode, LocalNodeError } from "./index.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const start = (dataDir: string) => createLocalNode({ ethereumRpc: "http://127.0.0.1:1", dataDir, ports: { query: 0, admin: 0, ipfs: 0, status: 0 }, log: () => {} });

describe("the data folder", () => {
  it("is held by one node at a time", { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "local-node-folder-"));
    dirs.push(dataDir);
    const first = await start(dataDir);
    const second = await start(dataDir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(second).toBeInstanceOf(LocalNodeError);
    expect((second as Error).message).toBe(`the data folder ${dataDir} is in use by another local node (process ${process.pid}); stop it, or give this one another data folder`);
    await first.close();
    const again = await start(dataDir);
    await again.close();
  });

  it("is taken over from a holder that died without closing", { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "local-node-folder-"));
    dirs.push(dataDir);
    // A pid no process has (above the kernel's pid_max default range).
    await writeFile(join(dataDir, "node.pid"), "4194999\n");
    const node = await start(dataDir);
    await node.close();
  });
});
