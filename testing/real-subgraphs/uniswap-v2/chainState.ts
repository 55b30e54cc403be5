// What the chain itself says about a Uniswap v2 deployment: the factory's pairs, each pair's tokens,
// reserves and LP supply (eth_call, at the head or at a past block), the tokens' metadata, and every
// event the pairs emitted with its block time and sender (eth_getLogs). The checks compare an engine's
// entities with this, never with an engine's earlier answers.
import { Contract, JsonRpcProvider, ZeroAddress, type Log } from "ethers";
import { uniswapInterface } from "./protocol.js";
import { createRpcBatcher } from "./rpcBatch.js";

export interface PairState {
  address: string;
  token0: string;
  token1: string;
  reserve0: bigint;
  reserve1: bigint;
  totalSupply: bigint;
  /** LP tokens locked at the zero address by the first mint (MINIMUM_LIQUIDITY). */
  locked: bigint;
  createdBlock: number;
  createdTimestamp: number;
}

export interface TokenState {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  /** totalSupply() in the block where the token's first pair was created. */
  totalSupplyAtFirstPair: bigint;
}

export type PairEventName = "Mint" | "Burn" | "Swap" | "Transfer" | "Sync";

export interface PairEvent {
  name: PairEventName;
  pair: string;
  block: number;
  timestamp: number;
  tx: string;
  txFrom: string;
  logIndex: number;
  args: Record<string, bigint | string>;
}

export interface UniswapChainState {
  head: number;
  pairs: PairState[];
  tokens: Map<string, TokenState>;
  /** The pairs' events in chain order. */
  events: PairEvent[];
}

const ERC20_VIEWS = ["function name() view returns (string)", "function symbol() view returns (string)", "function decimals() view returns (uint8)", "function totalSupply() view returns (uint256)", "function balanceOf(address) view returns (uint256)"];

export async function readUniswapState(chainUrl: string, factoryAddress: string, fromBlock: number, atBlock?: number): Promise<UniswapChainState> {
  const provider = new JsonRpcProvider(chainUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const head = atBlock ?? (await provider.getBlockNumber());
    const blockTag = head;
    const [factoryIface, pairIface] = await Promise.all([uniswapInterface("UniswapV2Factory"), uniswapInterface("UniswapV2Pair")]);
    const factory = new Contract(factoryAddress, factoryIface, provider);
    const count = Number(await factory.getFunction("allPairsLength")({ blockTag }));
    const created = await provider.getLogs({ address: factoryAddress, topics: [factoryIface.getEvent("PairCreated")?.topicHash ?? ""], fromBlock, toBlock: head });
    const createdAt = new Map(created.map((l) => [String(factoryIface.parseLog(l)?.args.getValue("pair")).toLowerCase(), l.blockNumber]));
    const timestamps = new Map<number, number>();
    const timeOf = async (block: number) => {
      if (!timestamps.has(block)) timestamps.set(block, (await provider.getBlock(block))?.timestamp ?? 0);
      return timestamps.get(block) ?? 0;
    };

    const pairs: PairState[] = [];
    for (let i = 0; i < count; i++) {
      const address = String(await factory.getFunction("allPairs")(i, { blockTag })).toLowerCase();
      const pair = new Contract(address, pairIface, provider);
      const [token0, token1, reserves, totalSupply, locked] = await Promise.all([
        pair.getFunction("token0")({ blockTag }),
        pair.getFunction("token1")({ blockTag }),
        pair.getFunction("getReserves")({ blockTag }),
        pair.getFunction("totalSupply")({ blockTag }),
        pair.getFunction("balanceOf")(ZeroAddress, { blockTag }),
      ]);
      const createdBlock = createdAt.get(address) ?? -1;
      pairs.push({ address, token0: String(token0).toLowerCase(), token1: String(token1).toLowerCase(), reserve0: BigInt(reserves[0]), reserve1: BigInt(reserves[1]), totalSupply: BigInt(totalSupply), locked: BigInt(locked), createdBlock, createdTimestamp: await timeOf(createdBlock) });
    }

    const tokens = new Map<string, TokenState>();
    for (const pair of pairs) {
      for (const address of [pair.token0, pair.token1]) {
        if (tokens.has(address)) continue;
        const token = new Contract(address, ERC20_VIEWS, provider);
        const at = { blockTag: pair.createdBlock };
        const [name, symbol, decimals, totalSupply] = await Promise.all(["name", "symbol", "decimals", "totalSupply"].map((f) => token.getFunction(f)(at)));
        tokens.set(address, { address, name: String(name), symbol: String(symbol), decimals: Number(decimals), totalSupplyAtFirstPair: BigInt(totalSupply) });
      }
    }

    const events: PairEvent[] = [];
    const logs: Log[] = pairs.length === 0 ? [] : await provider.getLogs({ address: pairs.map((p) => p.address), fromBlock, toBlock: head });
    // Senders and block times in JSON-RPC batches: at scale there are tens of thousands of each.
    const rpc = createRpcBatcher(chainUrl);
    const hashes = [...new Set(logs.map((l) => l.transactionHash))];
    const txs = await rpc.requestMany<{ from: string } | null>("eth_getTransactionByHash", hashes.map((h) => [h]));
    const senders = new Map(hashes.map((h, i) => [h, (txs[i]?.from ?? "").toLowerCase()]));
    const blocks = [...new Set(logs.map((l) => l.blockNumber))].filter((b) => !timestamps.has(b));
    const headers = await rpc.requestMany<{ timestamp: string } | null>("eth_getBlockByNumber", blocks.map((b) => [`0x${b.toString(16)}`, false]));
    blocks.forEach((b, i) => timestamps.set(b, Number(headers[i]?.timestamp ?? 0)));
    for (const log of logs) {
      const parsed = pairIface.parseLog(log);
      if (!parsed || !["Mint", "Burn", "Swap", "Transfer", "Sync"].includes(parsed.name)) continue;
      const args: Record<string, bigint | string> = {};
      parsed.fragment.inputs.forEach((input, i) => {
        const value: unknown = parsed.args[i];
        args[input.name] = typeof value === "bigint" ? value : String(value).toLowerCase();
      });
      events.push({ name: parsed.name as PairEventName, pair: log.address.toLowerCase(), block: log.blockNumber, timestamp: await timeOf(log.blockNumber), tx: log.transactionHash.toLowerCase(), txFrom: senders.get(log.transactionHash) ?? "", logIndex: log.index, args });
    }
    events.sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
    return { head, pairs, tokens, events };
  } finally {
    provider.destroy();
  }
}
