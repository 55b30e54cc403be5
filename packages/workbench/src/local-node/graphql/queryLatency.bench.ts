// Query latency through HTTP, as a client sees it: p50/p99 of `approvalQueries(first: 1000)` and of a
// filter by owner. Also seeds a store with synthetic approvals for the standalone benchmark.
import { randomBytes } from "node:crypto";
import type { EntityChange, StoreValue } from "../../wasm-host/values/storeValue.js";
import type { NodeStore } from "../store/types.js";

export interface LatencyFigures {
  p50: number;
  p99: number;
  mean: number;
}

export interface QueryLatency {
  first1000: LatencyFigures;
  byOwner: LatencyFigures;
  rounds: number;
}

function figures(samples: number[]): LatencyFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
  return { p50: at(50), p99: at(99), mean: sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length) };
}

async function timeQuery(queryUrl: string, query: string, rounds: number, check: (data: unknown) => void): Promise<LatencyFigures> {
  const samples: number[] = [];
  // Warm-up rounds are not counted (connection setup, schema build, plan caches).
  for (let i = -3; i < rounds; i++) {
    const start = performance.now();
    const res = await fetch(queryUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query }) });
    const body = (await res.json()) as { data?: unknown; errors?: unknown };
    const ms = performance.now() - start;
    if (body.errors || !body.data) throw new Error(`query failed: ${JSON.stringify(body.errors ?? body)}`);
    check(body.data);
    if (i >= 0) samples.push(ms);
  }
  return figures(samples);
}

/** Measures both queries `rounds` times each against `queryUrl` (a /subgraphs/name|id/... URL). */
export async function measureQueryLatency(options: { queryUrl: string; owner?: string; rounds?: number }): Promise<QueryLatency> {
  const rounds = options.rounds ?? 100;
  let owner = options.owner;
  if (!owner) {
    const res = await fetch(options.queryUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: "{ approvalQueries(first: 1) { owner } }" }) });
    const body = (await res.json()) as { data?: { approvalQueries?: { owner: string }[] } };
    owner = body.data?.approvalQueries?.[0]?.owner;
    if (!owner) throw new Error("no approvals to measure");
  }
  const first1000 = await timeQuery(options.queryUrl, "{ approvalQueries(first: 1000) { id owner spender value } }", rounds, (data) => {
    if ((data as { approvalQueries: unknown[] }).approvalQueries.length !== 1000) throw new Error("expected 1000 approvals");
  });
  const byOwner = await timeQuery(options.queryUrl, `{ approvalQueries(where: { owner: "${owner}" }) { id owner spender value } }`, rounds, (data) => {
    if ((data as { approvalQueries: unknown[] }).approvalQueries.length === 0) throw new Error("expected approvals of the owner");
  });
  return { first1000, byOwner, rounds };
}

/**
 * Writes `count` synthetic approvals (the project's ApprovalQuery shape: id `<tx hash>-<log index>`,
 * owner among `owners` addresses) in blocks of `perBlock`, committing `blocksPerBatch` blocks at once.
 */
export async function seedApprovals(store: NodeStore, deploymentId: string, options: { count: number; owners: number; perBlock?: number; blocksPerBatch?: number }): Promise<void> {
  const perBlock = options.perBlock ?? 100;
  const blocksPerBatch = options.blocksPerBatch ?? 50;
  const owners = Array.from({ length: options.owners }, () => randomBytes(20));
  const bytes = (b: Uint8Array): StoreValue => ({ kind: "Bytes", value: b });
  let n = 0;
  let blockNumber = 1;
  while (n < options.count) {
    const batch = [];
    for (let b = 0; b < blocksPerBatch && n < options.count; b++, blockNumber++) {
      const changes: EntityChange[] = [];
      const tx = randomBytes(32).toString("hex");
      for (let i = 0; i < perBlock && n < options.count; i++, n++) {
        const id = `0x${tx}-${i}`;
        changes.push({
          op: "set", entityType: "ApprovalQuery", id,
          data: new Map<string, StoreValue>([
            ["id", { kind: "String", value: id }],
            ["owner", bytes(owners[n % owners.length] ?? randomBytes(20))],
            ["spender", bytes(randomBytes(20))],
            ["value", { kind: "BigInt", value: BigInt(n) * 10n ** 15n }],
          ]),
        });
      }
      batch.push({ block: { number: blockNumber, hash: `0x${randomBytes(32).toString("hex")}` }, changes });
    }
    await store.transactBlocks(deploymentId, batch);
  }
}
