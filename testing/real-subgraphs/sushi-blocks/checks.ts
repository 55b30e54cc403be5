// An engine's Block entities against the chain: one per block from the start block to the head, keyed by
// hash, every field as eth_getBlockByNumber returns it; and at a past block, exactly the blocks up to it.
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import type { CheckContext } from "../types.js";

interface RpcBlock {
  hash: string;
  number: string;
  timestamp: string;
  parentHash: string;
  miner: string;
  difficulty: string;
  totalDifficulty?: string;
  gasUsed: string;
  gasLimit: string;
  receiptsRoot: string;
  transactionsRoot: string;
  stateRoot: string;
  size: string;
  sha3Uncles: string;
}

const dec = (hex: string | undefined) => (hex === undefined ? null : BigInt(hex).toString());

export async function checkBlocks(ctx: CheckContext, startBlock: number, pastBlocks: number[]): Promise<void> {
  const { checks } = ctx;
  const rpc = createJsonRpcClient({ url: ctx.chainUrl });
  const head = Number(await rpc.request<string>("eth_blockNumber"));
  const blocks: RpcBlock[] = [];
  for (let n = startBlock; n <= head; n++) blocks.push(await rpc.request<RpcBlock>("eth_getBlockByNumber", [`0x${n.toString(16)}`, false]));

  const rows = new Map((await ctx.entities("Block")).map((r) => [String(r.id), r]));
  checks.sameSet(`Block ids = the hashes of blocks ${startBlock}..${head}`, rows.keys(), blocks.map((b) => b.hash));
  for (const b of blocks) {
    const row = rows.get(b.hash) ?? {};
    const n = Number(b.number);
    checks.equal(`Block ${n} number, timestamp, parentHash, author`, [row.number, row.timestamp, row.parentHash, row.author], [dec(b.number), dec(b.timestamp), b.parentHash, b.miner.toLowerCase()]);
    checks.equal(`Block ${n} difficulty, totalDifficulty, gasUsed, gasLimit, size`, [row.difficulty, row.totalDifficulty, row.gasUsed, row.gasLimit, row.size], [dec(b.difficulty), dec(b.totalDifficulty), dec(b.gasUsed), dec(b.gasLimit), dec(b.size)]);
    checks.equal(`Block ${n} receiptsRoot, transactionsRoot, stateRoot, unclesHash`, [row.receiptsRoot, row.transactionsRoot, row.stateRoot, row.unclesHash], [b.receiptsRoot, b.transactionsRoot, b.stateRoot, b.sha3Uncles]);
  }
  for (const at of pastBlocks) {
    const then = await ctx.entities("Block", at);
    checks.sameSet(`@${at}: Block ids = the hashes of blocks ${startBlock}..${at}`, then.map((r) => String(r.id)), blocks.filter((b) => Number(b.number) <= at).map((b) => b.hash));
  }
}
