// Throughput (`npm run bench:ipfs`, CLI in scripts/bench/ipfs.ts) of the node's IPFS store (fs-backed, as the local node runs it)
// for adding and reading a multi-chunk file, and graph-cli-style uploads over the RPC server.
// Bounded: about 100 MB of I/O in a temp dir that is removed afterwards.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { create as createKuboClient } from "kubo-rpc-client";
import { kuboDeterministicBytes } from "./_test/kuboFixtures.js";
import { createIpfsServer } from "./ipfsServer.js";
import { createIpfsStore } from "./ipfsStore.js";

const MiB = 1024 * 1024;

export async function runIpfsBench(log: (line: string) => void = console.log): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "ipfs-bench-"));
  try {
    const ipfs = await createIpfsStore({ dir });
    const big = kuboDeterministicBytes("bench", 40 * MiB);

    let t = performance.now();
    const cid = await ipfs.add(big);
    const addMs = performance.now() - t;

    t = performance.now();
    const back = await ipfs.cat(cid);
    const catMs = performance.now() - t;
    if (back?.length !== big.length) throw new Error("cat returned the wrong length");

    const server = await createIpfsServer({ ipfs, port: 0 });
    const client = createKuboClient({ url: server.url });
    const small = kuboDeterministicBytes("small", 64 * 1024);
    const uploads = 200;
    t = performance.now();
    for (let i = 0; i < uploads; i++) {
      small[0] = i & 0xff;
      small[1] = i >> 8;
      // graph-cli's sequence per file: addAll([file]) then pin.add(cid).
      for await (const added of client.addAll([{ path: `f${i}.bin`, content: small }])) await client.pin.add(added.cid);
    }
    const uploadMs = performance.now() - t;
    await server.close();

    log(`ipfs add (fs store, 40 MiB, 160 chunks): ${(40 / (addMs / 1000)).toFixed(1)} MiB/s (${addMs.toFixed(0)} ms)`);
    log(`ipfs cat (fs store, 40 MiB):              ${(40 / (catMs / 1000)).toFixed(1)} MiB/s (${catMs.toFixed(0)} ms)`);
    log(`RPC add+pin of 64 KiB files (kubo-rpc-client, sequential): ${(uploads / (uploadMs / 1000)).toFixed(0)} files/s (${(uploadMs / uploads).toFixed(2)} ms each)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

