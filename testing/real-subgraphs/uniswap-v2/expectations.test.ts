import { describe, expect, it } from "vitest";
import type { PairEvent, UniswapChainState } from "./chainState.js";
import { deriveExpectations } from "./expectations.js";

const ZERO = "0x0000000000000000000000000000000000000000";
const PAIR = "0x00000000000000000000000000000000000000aa";
const LP = "0x00000000000000000000000000000000000000b1";
const ROUTER = "0x00000000000000000000000000000000000000c1";
const T0 = "0x0000000000000000000000000000000000000001";
const T1 = "0x0000000000000000000000000000000000000002";
const DAY = 86_400;

let logIndex = 0;
const event = (name: PairEvent["name"], tx: string, timestamp: number, args: PairEvent["args"]): PairEvent => ({ name, pair: PAIR, block: timestamp, timestamp, tx, txFrom: LP, logIndex: logIndex++, args });

function state(events: PairEvent[]): UniswapChainState {
  return { head: 99, pairs: [{ address: PAIR, token0: T0, token1: T1, reserve0: 0n, reserve1: 0n, totalSupply: 0n, locked: 1000n, createdBlock: 1, createdTimestamp: 1 }], tokens: new Map(), events };
}

describe("Uniswap v2 expectations from chain events", () => {
  it("pairs each Mint and Burn with its LP-token transfer, ignores the locked minimum, and counts by day and hour", () => {
    const derived = deriveExpectations(
      state([
        // First liquidity: 1000 LP tokens locked at the zero address, the rest to the provider.
        event("Transfer", "0xm", 10, { from: ZERO, to: ZERO, value: 1000n }),
        event("Transfer", "0xm", 10, { from: ZERO, to: LP, value: 5000n }),
        event("Sync", "0xm", 10, { reserve0: 100n, reserve1: 60n }),
        event("Mint", "0xm", 10, { sender: ROUTER, amount0: 100n, amount1: 60n }),
        event("Swap", "0xs", DAY + 10, { sender: ROUTER, amount0In: 7n, amount1In: 0n, amount0Out: 0n, amount1Out: 4n, to: LP }),
        // Removing liquidity through the router: LP tokens to the pair, then burnt.
        event("Transfer", "0xb", DAY + 3_700, { from: LP, to: PAIR, value: 2000n }),
        event("Transfer", "0xb", DAY + 3_700, { from: PAIR, to: ZERO, value: 2000n }),
        event("Burn", "0xb", DAY + 3_700, { sender: ROUTER, amount0: 40n, amount1: 24n, to: LP }),
      ]),
    );
    expect(derived.mints).toEqual([expect.objectContaining({ tx: "0xm", to: LP, liquidity: 5000n, amount0: 100n, sender: ROUTER })]);
    expect(derived.burns).toEqual([expect.objectContaining({ tx: "0xb", liquidity: 2000n, amount1: 24n })]);
    expect(derived.swaps).toEqual([expect.objectContaining({ tx: "0xs", from: LP, amount0In: 7n, amount1Out: 4n })]);
    expect([...derived.transactions.keys()]).toEqual(["0xm", "0xs", "0xb"]);
    expect([...derived.users].sort()).toEqual([ZERO, PAIR, LP].sort());
    expect(derived.txCount).toBe(3);
    expect(derived.pairs.get(PAIR)).toEqual({ txns: 3, volume0: 7n, volume1: 4n });
    expect(derived.tokens.get(T0)).toEqual({ txns: 3, volume0: 7n, volume1: 0n });
    expect([...derived.pairDays.keys()]).toEqual([`${PAIR}-0`, `${PAIR}-1`]);
    expect(derived.pairHours.size).toBe(3);
    expect([...derived.days.entries()]).toEqual([["0", { date: 0, txCount: 1 }], ["1", { date: DAY, txCount: 3 }]]);
  });
});
