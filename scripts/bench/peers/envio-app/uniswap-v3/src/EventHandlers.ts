// One Swap row per Swap log of the pool, keyed `<tx hash>-<log index>` as the subgraph keys it.
import { UniswapV3Pool } from "generated";

UniswapV3Pool.Swap.handler(async ({ event, context }) => {
  context.Swap.set({
    id: `${event.transaction.hash}-${event.logIndex}`,
    sender: event.params.sender,
    recipient: event.params.recipient,
    amount0: event.params.amount0,
    amount1: event.params.amount1,
    sqrtPriceX96: event.params.sqrtPriceX96,
    liquidity: event.params.liquidity,
    tick: event.params.tick,
  });
});
