// What Uniswap/v2-subgraph must hold, derived from the chain's events alone by the subgraph's documented
// model: one Transaction per transaction with an LP-token Transfer or a Swap; one Mint per Mint event,
// with the LP tokens of the Transfer from the zero address before it; one Burn per Burn event, with the
// LP tokens the pair burnt; one Swap per Swap event; users from LP-token transfers; counts and volumes by
// pair, token, day and hour. The initial MINIMUM_LIQUIDITY transfer (1000 LP tokens to the zero address)
// is ignored by the subgraph, by design.
import { ZeroAddress } from "ethers";
import type { PairEvent, PairState, UniswapChainState } from "./chainState.js";

export const MINIMUM_LIQUIDITY = 1000n;
const ZERO = ZeroAddress.toLowerCase();

export interface ExpectedMint {
  tx: string;
  pair: string;
  logIndex: number;
  timestamp: number;
  sender: string;
  amount0: bigint;
  amount1: bigint;
  /** From the Transfer of LP tokens out of the zero address before the Mint event. */
  to: string;
  liquidity: bigint;
}

export interface ExpectedBurn {
  tx: string;
  pair: string;
  logIndex: number;
  timestamp: number;
  amount0: bigint;
  amount1: bigint;
  /** From the Transfer of LP tokens from the pair to the zero address before the Burn event. */
  liquidity: bigint;
}

export interface ExpectedSwap {
  tx: string;
  pair: string;
  logIndex: number;
  timestamp: number;
  sender: string;
  to: string;
  from: string;
  amount0In: bigint;
  amount1In: bigint;
  amount0Out: bigint;
  amount1Out: bigint;
}

export interface Tally {
  txns: number;
  /** Raw swap volumes (in + out) of the pair's token0 and token1, or of a token. */
  volume0: bigint;
  volume1: bigint;
}

export interface UniswapExpectations {
  mints: ExpectedMint[];
  burns: ExpectedBurn[];
  swaps: ExpectedSwap[];
  transactions: Map<string, { block: number; timestamp: number }>;
  users: Set<string>;
  /** Mint, Burn and Swap events per pair, and swap volumes. */
  pairs: Map<string, Tally>;
  /** Mint, Burn and Swap events on the token's pairs, and its swap volume (volume0). */
  tokens: Map<string, Tally>;
  pairDays: Map<string, Tally & { pair: string; date: number }>;
  pairHours: Map<string, Tally & { pair: string; hourStart: number }>;
  tokenDays: Map<string, Tally & { token: string; date: number }>;
  /** Per day: the protocol's running count of Mint, Burn and Swap events at the day's last one. */
  days: Map<string, { date: number; txCount: number }>;
  txCount: number;
}

const tally = (): Tally => ({ txns: 0, volume0: 0n, volume1: 0n });

function bump<K, T extends Tally>(map: Map<K, T>, key: K, make: () => T, volume0 = 0n, volume1 = 0n): void {
  const t = map.get(key) ?? make();
  t.txns++;
  t.volume0 += volume0;
  t.volume1 += volume1;
  map.set(key, t);
}

export function deriveExpectations(state: UniswapChainState): UniswapExpectations {
  const pairsByAddress = new Map<string, PairState>(state.pairs.map((p) => [p.address, p]));
  const out: UniswapExpectations = { mints: [], burns: [], swaps: [], transactions: new Map(), users: new Set(), pairs: new Map(), tokens: new Map(), pairDays: new Map(), pairHours: new Map(), tokenDays: new Map(), days: new Map(), txCount: 0 };
  const lastMintTransfer = new Map<string, PairEvent>();
  const lastBurnTransfer = new Map<string, PairEvent>();
  for (const e of state.events) {
    const pair = pairsByAddress.get(e.pair);
    if (!pair) continue;
    const key = `${e.tx}:${e.pair}`;
    if (e.name === "Transfer") {
      if (e.args.to === ZERO && e.args.value === MINIMUM_LIQUIDITY) continue;
      out.transactions.set(e.tx, { block: e.block, timestamp: e.timestamp });
      out.users.add(String(e.args.from)).add(String(e.args.to));
      if (e.args.from === ZERO) lastMintTransfer.set(key, e);
      if (e.args.from === e.pair && e.args.to === ZERO) lastBurnTransfer.set(key, e);
      continue;
    }
    if (e.name === "Sync") continue;
    const n = (field: string): bigint => {
      const value = e.args[field];
      if (typeof value !== "bigint") throw new Error(`${e.name} at ${e.tx}:${e.logIndex} has no amount ${field}`);
      return value;
    };
    const s = (field: string) => String(e.args[field] ?? "");
    let volume0 = 0n;
    let volume1 = 0n;
    if (e.name === "Mint") {
      const transfer = lastMintTransfer.get(key);
      out.mints.push({ tx: e.tx, pair: e.pair, logIndex: e.logIndex, timestamp: e.timestamp, sender: s("sender"), amount0: n("amount0"), amount1: n("amount1"), to: String(transfer?.args.to ?? ""), liquidity: BigInt(transfer?.args.value ?? -1n) });
    } else if (e.name === "Burn") {
      const transfer = lastBurnTransfer.get(key);
      out.burns.push({ tx: e.tx, pair: e.pair, logIndex: e.logIndex, timestamp: e.timestamp, amount0: n("amount0"), amount1: n("amount1"), liquidity: BigInt(transfer?.args.value ?? -1n) });
    } else {
      out.transactions.set(e.tx, { block: e.block, timestamp: e.timestamp });
      const swap: ExpectedSwap = { tx: e.tx, pair: e.pair, logIndex: e.logIndex, timestamp: e.timestamp, sender: s("sender"), to: s("to"), from: e.txFrom, amount0In: n("amount0In"), amount1In: n("amount1In"), amount0Out: n("amount0Out"), amount1Out: n("amount1Out") };
      out.swaps.push(swap);
      volume0 = swap.amount0In + swap.amount0Out;
      volume1 = swap.amount1In + swap.amount1Out;
    }
    out.txCount++;
    const day = Math.floor(e.timestamp / 86_400);
    const hour = Math.floor(e.timestamp / 3_600);
    bump(out.pairs, e.pair, tally, volume0, volume1);
    bump(out.tokens, pair.token0, tally, volume0);
    bump(out.tokens, pair.token1, tally, volume1);
    bump(out.pairDays, `${e.pair}-${day}`, () => ({ ...tally(), pair: e.pair, date: day * 86_400 }), volume0, volume1);
    bump(out.pairHours, `${e.pair}-${hour}`, () => ({ ...tally(), pair: e.pair, hourStart: hour * 3_600 }), volume0, volume1);
    bump(out.tokenDays, `${pair.token0}-${day}`, () => ({ ...tally(), token: pair.token0, date: day * 86_400 }), volume0);
    bump(out.tokenDays, `${pair.token1}-${day}`, () => ({ ...tally(), token: pair.token1, date: day * 86_400 }), volume1);
    out.days.set(String(day), { date: day * 86_400, txCount: out.txCount });
  }
  return out;
}
