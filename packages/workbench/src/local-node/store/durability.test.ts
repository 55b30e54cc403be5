// A killed writer (SIGKILL, no close) leaves a PGlite data dir whose pointer and entities agree:
// every committed block is there, nothing of a half-written one.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { createNodeStore } from "./nodeStore.js";

it("keeps committed blocks and the pointer consistent across a SIGKILL", async () => {
  const dir = await mkdtemp(join(tmpdir(), "node-store-kill-"));
  try {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./_test/writerChild.ts", import.meta.url)), dir], { stdio: ["ignore", "pipe", "inherit"] });
    let lastCommitted = 0;
    await new Promise<void>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`writer exited early (${code})`)));
      child.stdout.on("data", (chunk: Buffer) => {
        for (const m of chunk.toString().matchAll(/committed (\d+)/g)) lastCommitted = Number(m[1]);
        if (lastCommitted >= 5) {
          child.removeAllListeners("exit");
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
        }
      });
    });
    const store = await createNodeStore({ dataDir: dir });
    try {
      const pointer = (await store.getDeployment("QmKill"))?.latestBlock?.number ?? 0;
      expect(pointer).toBeGreaterThanOrEqual(lastCommitted);
      expect(await store.entityCount("QmKill")).toBe(pointer * 50);
    } finally {
      await store.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
