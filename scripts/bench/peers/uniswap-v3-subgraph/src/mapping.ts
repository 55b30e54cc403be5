import { BigInt } from "@graphprotocol/graph-ts";
import { Swap as SwapEvent } from "../generated/UniswapV3Pool/UniswapV3Pool";
import { Swap } from "../generated/schema";

/** One immutable Swap per Swap log, keyed `<tx hash>-<log index>`. */
export function handleSwap(event: SwapEvent): void {
  const swap = new Swap(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  swap.sender = event.params.sender;
  swap.recipient = event.params.recipient;
  swap.amount0 = event.params.amount0;
  swap.amount1 = event.params.amount1;
  swap.sqrtPriceX96 = event.params.sqrtPriceX96;
  swap.liquidity = event.params.liquidity;
  swap.tick = BigInt.fromI32(event.params.tick);
  swap.save();
}
