// The node's start-up order: its IPFS API listens before the store opens, so graph-cli's `build --ipfs`
// beside a starting node can upload early; a node whose store fails to open leaves nothing listening.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLocalNode } from "../index.js";
import { freePort } from "../../lib/freePort.js";
import { ipfsApiAnswers, waitForIpfsApi } from "../../lib/ipfsApiReady.js";
import { freePorts } from "./harness.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "local-node-startup-"));
  dirs.push(dir);
  return dir;
}

describe("local node start-up", () => {
  it("takes IPFS uploads while it starts, and keeps them once it is up", async () => {
    const ports = await freePorts();
    const ipfsUrl = `http://127.0.0.1:${ports.ipfs}`;
    const starting = createLocalNode({ ethereumRpc: "http://127.0.0.1:9", dataDir: await dataDir(), ports, log: () => {} });
    starting.catch(() => undefined);
    await waitForIpfsApi(ipfsUrl, { timeoutMs: 60_000, gaveUp: starting });
    const form = new FormData();
    form.append("file", new Blob(["uploaded during start-up"]), "file");
    const added = (await (await fetch(`${ipfsUrl}/api/v0/add`, { method: "POST", body: form })).json()) as { Hash: string };
    const node = await starting;
    try {
      const cat = await fetch(`${node.urls.ipfs}/api/v0/cat?arg=${added.Hash}`, { method: "POST" });
      expect(await cat.text()).toBe("uploaded during start-up");
    } finally {
      await node.close();
    }
  }, 120_000);

  it("closes its IPFS API and frees its data folder when the store cannot open", async () => {
    const ports = await freePorts();
    const dir = await dataDir();
    const nowhere = `postgres://postgres@127.0.0.1:${await freePort()}/none`;
    await expect(createLocalNode({ ethereumRpc: "http://127.0.0.1:9", dataDir: dir, databaseUrl: nowhere, ports, log: () => {} })).rejects.toThrow();
    expect(await ipfsApiAnswers(`http://127.0.0.1:${ports.ipfs}`)).toBe(false);
    // The same ports and folder serve a node started next.
    const node = await createLocalNode({ ethereumRpc: "http://127.0.0.1:9", dataDir: dir, ports, log: () => {} });
    try {
      expect(await ipfsApiAnswers(node.urls.ipfs)).toBe(true);
    } finally {
      await node.close();
    }
  }, 120_000);
});
