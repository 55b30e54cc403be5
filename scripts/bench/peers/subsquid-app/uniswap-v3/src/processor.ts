// The processor as the SDK's EVM template sets it up, with a plain JSON-RPC endpoint and no gateway: the
// bench's Hardhat chain is in no Subsquid Network dataset. The bench passes the chain and the pool
// (BENCH_ADDRESS) through the environment.
import {
    BlockHeader,
    DataHandlerContext,
    EvmBatchProcessor,
    EvmBatchProcessorFields,
    Log as _Log,
} from '@subsquid/evm-processor'
import * as uniswapV3Pool from './abi/UniswapV3Pool'

function required(name: string): string {
    const value = process.env[name]
    if (!value) throw new Error(`${name} is not set`)
    return value
}

export const POOL = required('BENCH_ADDRESS').toLowerCase()

export const processor = new EvmBatchProcessor()
    .setRpcEndpoint(required('RPC_ETH_HTTP'))
    // A chain the SDK does not know: blocks this far below the head count as final (as Ponder takes them
    // on 31337); the bench mines this many empty blocks after the last event.
    .setFinalityConfirmation(Number(required('BENCH_FINALITY_BLOCKS')))
    // Hardhat mines a block per transaction: look for new ones often.
    .setRpcDataIngestionSettings({headPollInterval: 1_000})
    .setFields({
        log: {
            transactionHash: true,
        },
    })
    .setBlockRange({from: Number(required('BENCH_START_BLOCK'))})
    .addLog({
        address: [POOL],
        topic0: [uniswapV3Pool.events.Swap.topic],
    })

export type Fields = EvmBatchProcessorFields<typeof processor>
export type Block = BlockHeader<Fields>
export type Log = _Log<Fields>
export type ProcessorContext<Store> = DataHandlerContext<Store, Fields>
