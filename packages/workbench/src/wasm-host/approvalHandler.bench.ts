// Throughput of an ApprovalHandler through the host with the store: events are run block by block,
// each block's changes are applied to an in-memory store, as the runner and indexer do.
import { parseSubgraphSchema } from "../subgraph-schema/index.js";
import { instantiateSubgraph } from "./instance.js";
import { createMemoryEntityStore } from "./store/memoryEntityStore.js";
import { approvalEvent, syntheticBlock, syntheticTransaction } from "./_test/approvalEvents.js";

export interface ApprovalBenchOptions {
  wasm: Uint8Array | WebAssembly.Module;
  schemaSdl: string;
  handler: string;
  events: number;
  eventsPerBlock: number;
  apiVersion?: string;
  /** Apply each block's changes to the in-memory store (default). False drops them: the host alone. */
  keepChanges?: boolean;
}

export interface ApprovalBenchResult {
  events: number;
  milliseconds: number;
  eventsPerSecond: number;
  /** Process CPU time (user + system, all threads) during the timed run: steadier on a shared machine. */
  cpuMilliseconds: number;
  eventsPerCpuSecond: number;
  entities: number;
  instantiateMilliseconds: number;
}

export async function runApprovalBench(options: ApprovalBenchOptions): Promise<ApprovalBenchResult> {
  const backend = createMemoryEntityStore();
  const t0 = performance.now();
  const instance = await instantiateSubgraph(options.wasm, {
    apiVersion: options.apiVersion ?? "0.0.7",
    schema: parseSubgraphSchema(options.schemaSdl),
    store: backend,
    dataSource: { name: "ApprovalToken", address: "0xa16081f360e3847006db660bae1c6d1b2e17ec2a", network: "localhost", context: null },
  });
  const instantiateMilliseconds = performance.now() - t0;
  // Event inputs are built block by block inside the timed loop, as an indexer builds them from
  // logs; keeping them all alive would only measure the garbage collector.
  const makeBlock = (number: number, first: number, count: number) => {
    const block = syntheticBlock(number);
    const events = [];
    for (let i = 0; i < count; i++) {
      const n = first + i;
      const tx = syntheticTransaction(number, Math.floor(i / 4));
      const value = n % 3 === 0 ? 0n : n % 3 === 1 ? (1n << 256n) - 1n : BigInt(n) * 10n ** 18n;
      events.push(approvalEvent(block, tx, i, "0x1111111111111111111111111111111111111111", "0x2222222222222222222222222222222222222222", value));
    }
    return events;
  };
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let done = 0, number = 1; done < options.events; number++) {
    const count = Math.min(options.eventsPerBlock, options.events - done);
    const events = makeBlock(number, done, count);
    done += count;
    instance.beginBlock({ number, hash: "0x" + number.toString(16).padStart(64, "0") });
    for (const event of events) instance.runEventHandler(options.handler, event);
    const changes = instance.takeChanges();
    if (options.keepChanges !== false) backend.apply(changes, number);
  }
  const milliseconds = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMilliseconds = (cpu.user + cpu.system) / 1000;
  return {
    events: options.events,
    milliseconds,
    eventsPerSecond: Math.round((options.events / milliseconds) * 1000),
    cpuMilliseconds,
    eventsPerCpuSecond: Math.round((options.events / cpuMilliseconds) * 1000),
    entities: backend.count(),
    instantiateMilliseconds,
  };
}
