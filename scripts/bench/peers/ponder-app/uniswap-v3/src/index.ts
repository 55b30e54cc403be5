// One insert per Swap log, keyed `<tx hash>-<log index>` as the subgraph keys it. The ABI is read at run
// time (ponder.config.ts), so Ponder cannot type the event's name and arguments: hence the casts.
import { ponder } from "ponder:registry";
import { swap } from "ponder:schema";

type SwapEvent = {
  transaction: { hash: string };
  log: { logIndex: number };
  args: { sender: `0x${string}`; recipient: `0x${string}`; amount0: bigint; amount1: bigint; sqrtPriceX96: bigint; liquidity: bigint; tick: number };
};

ponder.on("UniswapV3Pool:Swap" as never, (async ({ event, context }: { event: SwapEvent; context: { db: any } }) => {
  await context.db.insert(swap).values({
    id: `${event.transaction.hash}-${event.log.logIndex}`,
    sender: event.args.sender,
    recipient: event.args.recipient,
    amount0: event.args.amount0,
    amount1: event.args.amount1,
    sqrtPriceX96: event.args.sqrtPriceX96,
    liquidity: event.args.liquidity,
    tick: BigInt(event.args.tick),
  });
}) as never);
