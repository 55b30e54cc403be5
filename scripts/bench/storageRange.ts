// npm run bench:storage-range
// 1. Storage-range emulation: round trips and wall time, batched vs the sequential oracle (one request per
//    slot, like the reference script), through a loopback proxy adding 5 ms per HTTP request to a Hardhat node.
// 2. getMultipleAccounts for 1,000 keys against the Solana fixture server vs one getAccountInfo at a time.
import { performance } from "node:perf_hooks";
import { startHardhatNode } from "../../hardhat/chain/hardhatNode.js";
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import { storageRangeAtResponse } from "../../clients/evm/index.js";
import { startRpcProxy } from "../../clients/evm/_test/rpcProxy.js";
import { sequentialStorageRange } from "../../clients/evm/_test/sequentialOracle.js";
import { deploySparseStorage } from "../../clients/evm/_test/sparseStorage.js";
import { getAccountInfo, getMultipleAccounts } from "../../clients/solana/index.js";
import { keyFor } from "../../clients/solana/_test/accounts.js";
import { startSolanaFixtureServer, type FixtureAccount } from "../../clients/solana/_test/fixtureServer.js";

const LATENCY_MS = 5;
const RUNS = 3;
const silent = { warn: () => undefined };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await run();
  return { ms: performance.now() - t0, value };
}

async function benchStorageRange(): Promise<void> {
  const node = await startHardhatNode();
  const chain = await deploySparseStorage(node.url);
  try {
    // Slots 0-330: the constructor's sparse slots, then 300 slots with every 4th left zero.
    const blockHash = await chain.send(chain.contract.fill(31n, 300n, 4n));
    const proxy = await startRpcProxy({ target: node.url, latencyMs: LATENCY_MS });
    const client = createJsonRpcClient({ url: proxy.url });
    console.log(`storage range: Hardhat node behind a loopback proxy adding ${LATENCY_MS} ms per HTTP request; median of ${RUNS} runs`);
    console.log("max_results | oracle round trips | batched round trips | ratio | oracle time | batched time | ratio | identical");
    for (const maxResults of [10, 100]) {
      const params = { blockHash, address: chain.address, startKey: "0x0", maxResults, logger: silent };
      const oracle: { ms: number; trips: number; out: string }[] = [];
      const ours: { ms: number; trips: number; out: string }[] = [];
      for (let run = 0; run < RUNS; run++) {
        proxy.reset();
        const o = await timed(() => sequentialStorageRange(client, params));
        oracle.push({ ms: o.ms, trips: proxy.httpRequests, out: JSON.stringify(o.value) });
        proxy.reset();
        const b = await timed(() => storageRangeAtResponse(client, params));
        ours.push({ ms: b.ms, trips: proxy.httpRequests, out: JSON.stringify(b.value) });
      }
      const identical = oracle.every((o, i) => o.out === ours[i]!.out && !o.out.includes('"error"'));
      const [oTrips, bTrips] = [median(oracle.map((r) => r.trips)), median(ours.map((r) => r.trips))];
      const [oMs, bMs] = [median(oracle.map((r) => r.ms)), median(ours.map((r) => r.ms))];
      console.log(
        `${maxResults} | ${oTrips} | ${bTrips} | ${(oTrips / bTrips).toFixed(1)}x | ${fmt(oMs)} | ${fmt(bMs)} | ${(oMs / bMs).toFixed(1)}x | ${identical}`,
      );
    }
    await proxy.close();
  } finally {
    chain.provider.destroy();
    await node.stop();
  }
}

async function benchAccounts(latencyMs: number): Promise<void> {
  const accounts = new Map<string, FixtureAccount>();
  const keys: string[] = [];
  for (let i = 0; i < 1_000; i++) {
    const key = keyFor(`bench-${i}`);
    keys.push(key);
    // Every tenth key is missing; the others hold 64-200 bytes.
    if (i % 10 !== 9) accounts.set(key, { lamports: BigInt(i), owner: keyFor("owner"), data: Uint8Array.from({ length: 64 + (i % 137) }, (_, j) => i + j) });
  }
  const server = await startSolanaFixtureServer({ accounts, ...(latencyMs > 0 && { latencyMs }) });
  const client = createJsonRpcClient({ url: server.url });
  try {
    const many: number[] = [];
    const single: number[] = [];
    let same = true;
    for (let run = 0; run < RUNS; run++) {
      const before = server.httpRequests;
      const m = await timed(() => getMultipleAccounts(client, { addresses: keys, encoding: "base64" }));
      const manyRequests = server.httpRequests - before;
      many.push(m.ms);
      const s = await timed(async () => {
        const out = [];
        for (const address of keys) out.push((await getAccountInfo(client, { address, encoding: "base64" })).value);
        return out;
      });
      single.push(s.ms);
      same &&= s.value.every((a, i) => (a === null ? m.value.value[i] === null : Buffer.compare(a.data, m.value.value[i]!.data) === 0));
      if (run === 0) console.log(`getMultipleAccounts, 1,000 keys, fixture latency ${latencyMs} ms: ${manyRequests} HTTP requests vs 1000`);
    }
    const [mMs, sMs] = [median(many), median(single)];
    console.log(`  getMultipleAccounts ${fmt(mMs)} | one getAccountInfo at a time ${fmt(sMs)} | ${(sMs / mMs).toFixed(1)}x faster | identical ${same}`);
  } finally {
    await server.close();
  }
}

await benchStorageRange();
await benchAccounts(0);
await benchAccounts(LATENCY_MS);
