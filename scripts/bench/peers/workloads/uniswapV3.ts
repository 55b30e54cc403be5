// Envio's published workload ("Race to the Blocks": a Uniswap v3 pool's Swap events, one Swap entity each)
// on this chain: a 0.3% pool from npm's v3-core and v3-periphery artifacts, N swaps sent densely through
// our driver contract with narrow positions minted and burned among them (hardhat/deploy/uniswapV3.ts).
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Interface, id as keccakId } from "ethers";
import { startHardhatNode } from "../../../../hardhat/chain/index.js";
import { deployUniswapV3Pool, ensureCompiled, sendSwaps, uniswapArtifact, UNISWAP_V3_POOL_ARTIFACT } from "../../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../../hardhat/projectRoot.js";
import { rpc } from "../../../../packages/workbench/src/local-node/e2e/harness.js";
import type { Row, Workload } from "../workload.js";

const require = createRequire(import.meta.url);
const SWAP_TOPIC = keccakId("Swap(address,address,int256,int256,uint160,uint128,int24)");
const peersDir = join(projectRoot, "scripts", "bench", "peers");

/** The pool's Swap events as the chain has them (eth_getLogs by address and topic), keyed as the handlers key them. */
async function chainSwaps(rpcUrl: string, pool: string, fromBlock: number): Promise<Row[]> {
  const iface = new Interface(uniswapArtifact(UNISWAP_V3_POOL_ARTIFACT).abi);
  const logs = await rpc<{ topics: string[]; data: string; transactionHash: string; logIndex: string }[]>(rpcUrl, "eth_getLogs", [
    { address: pool, topics: [SWAP_TOPIC], fromBlock: `0x${fromBlock.toString(16)}`, toBlock: "latest" },
  ]);
  return logs.map((l) => {
    const { args } = iface.parseLog({ topics: l.topics, data: l.data })!;
    return {
      id: `${l.transactionHash.toLowerCase()}-${Number(l.logIndex)}`,
      sender: String(args.getValue("sender")),
      recipient: String(args.getValue("recipient")),
      amount0: String(args.getValue("amount0")),
      amount1: String(args.getValue("amount1")),
      sqrtPriceX96: String(args.getValue("sqrtPriceX96")),
      liquidity: String(args.getValue("liquidity")),
      tick: String(args.getValue("tick")),
    };
  });
}

/** The pool's ABI from v3-core's artifact, as graph-cli and Ponder read an ABI file. */
async function writePoolAbi(path: string): Promise<void> {
  await writeFile(path, JSON.stringify(uniswapArtifact(UNISWAP_V3_POOL_ARTIFACT).abi, null, 2));
}

export const uniswapV3: Workload = {
  name: "uniswap-v3",
  eventsLabel: "Uniswap v3 Swap events (mints and burns among them)",
  shape: {
    fields: [
      { name: "sender", kind: "hex" },
      { name: "recipient", kind: "hex" },
      { name: "amount0", kind: "integer" },
      { name: "amount1", kind: "integer" },
      { name: "sqrtPriceX96", kind: "integer" },
      { name: "liquidity", kind: "integer" },
      { name: "tick", kind: "integer" },
    ],
  },
  targets: { events: 100_000 },
  async prepare({ events, log }) {
    log("starting Hardhat; deploying two tokens, the Uniswap v3 factory and position manager, a 0.3% pool with full-range liquidity, and the swap driver");
    await ensureCompiled();
    const chain = await startHardhatNode();
    try {
      const deployed = await deployUniswapV3Pool({ rpcUrl: chain.url });
      const started = Date.now();
      const sent = await sendSwaps({ rpcUrl: chain.url, driver: deployed.driver, count: events });
      log(`sent ${events.toLocaleString("en-US")} swaps in ${sent.transactions} transactions (${((Date.now() - started) / 1000).toFixed(1)} s), a narrow position minted and the last one burned every 50`);
      return {
        chain: { rpcUrl: chain.url, chainId: deployed.chainId, address: deployed.pool, startBlock: deployed.startBlock, events, lastEventBlock: sent.lastBlock },
        expected: () => chainSwaps(chain.url, deployed.pool, deployed.startBlock),
        stop: () => chain.stop(),
      };
    } catch (error) {
      await chain.stop();
      throw error;
    }
  },
  subgraph: {
    projectDir: join(peersDir, "uniswap-v3-subgraph"),
    files: ["subgraph.yaml", "schema.graphql", "src"],
    async prepare(workDir) {
      await mkdir(join(workDir, "abis"), { recursive: true });
      await writePoolAbi(join(workDir, "abis", "UniswapV3Pool.json"));
    },
    entity: "Swap",
    name: "bench/uniswap-v3",
  },
  ponder: {
    sourceDir: join(peersDir, "ponder-app", "uniswap-v3"),
    extraFiles: () => ({ "UniswapV3Pool.json": require.resolve(UNISWAP_V3_POOL_ARTIFACT) }),
    collection: "swaps",
  },
  subsquid: {
    sourceDir: join(peersDir, "subsquid-app", "uniswap-v3"),
    // squid-evm-typegen reads the artifact's `abi` as it is.
    abis: () => ({ "UniswapV3Pool.json": require.resolve(UNISWAP_V3_POOL_ARTIFACT) }),
    table: "swap",
  },
  envio: {
    sourceDir: join(peersDir, "envio-app", "uniswap-v3"),
    abis: () => ({ "UniswapV3Pool.json": require.resolve(UNISWAP_V3_POOL_ARTIFACT) }),
    table: "Swap",
  },
};
