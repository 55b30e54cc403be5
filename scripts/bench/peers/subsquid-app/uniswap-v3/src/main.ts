// One Swap row per Swap log of the pool, keyed `<tx hash>-<log index>` as the subgraph keys it, inserted
// a batch at a time as the SDK's templates do.
import {TypeormDatabase} from '@subsquid/typeorm-store'
import * as uniswapV3Pool from './abi/UniswapV3Pool'
import {Swap} from './model'
import {POOL, processor} from './processor'

processor.run(new TypeormDatabase({supportHotBlocks: true}), async (ctx) => {
    const swaps: Swap[] = []
    for (const block of ctx.blocks) {
        for (const log of block.logs) {
            if (log.address !== POOL || log.topics[0] !== uniswapV3Pool.events.Swap.topic) continue
            const {sender, recipient, amount0, amount1, sqrtPriceX96, liquidity, tick} = uniswapV3Pool.events.Swap.decode(log)
            swaps.push(
                new Swap({
                    id: `${log.transactionHash}-${log.logIndex}`,
                    sender: sender.toLowerCase(),
                    recipient: recipient.toLowerCase(),
                    amount0,
                    amount1,
                    sqrtPriceX96,
                    liquidity,
                    tick: BigInt(tick),
                })
            )
        }
    }
    await ctx.store.insert(swaps)
})
