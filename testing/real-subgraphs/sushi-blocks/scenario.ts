// The blocks scenario: a Uniswap v2 factory (SushiSwap's factory shares its ABI; the blocks subgraph names
// its data source UniswapV2Factory) as the data source, then blocks of every kind after it: plain ETH
// transfers, a contract deployment, several transactions in one block, empty blocks, and a jump in time.
import { JsonRpcProvider, parseEther, type TransactionResponse } from "ethers";
import { deployArtifact } from "../uniswap-v2/protocol.js";

export interface BlocksDeployment {
  factory: string;
  startBlock: number;
  pastBlocks: number[];
}

export async function runBlocksScenario(chainUrl: string, log: (line: string) => void = () => undefined): Promise<BlocksDeployment> {
  const provider = new JsonRpcProvider(chainUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  try {
    const signers = await Promise.all([0, 1, 2, 3].map((i) => provider.getSigner(i)));
    const [deployer, a, b, c] = signers;
    if (!deployer || !a || !b || !c) throw new Error("the chain has fewer than 4 unlocked accounts");
    const mined = async (sent: Promise<TransactionResponse>) => {
      const receipt = await (await sent).wait();
      if (receipt?.status !== 1) throw new Error(`transaction ${receipt?.hash ?? "?"} failed`);
    };
    // Blocks before the start block: the handler must not see them.
    await mined(a.sendTransaction({ to: await b.getAddress(), value: parseEther("1") }));
    const factory = await deployArtifact("UniswapV2Factory", deployer, [await deployer.getAddress()]);
    for (let i = 0; i < 3; i++) await mined(b.sendTransaction({ to: await c.getAddress(), value: parseEther("0.1") * BigInt(i + 1) }));
    await deployArtifact("WETH9", deployer);
    await provider.send("evm_mine", []);
    const middle = await provider.getBlockNumber();
    // Several transactions in one block.
    await provider.send("evm_setAutomine", [false]);
    const pending: TransactionResponse[] = [];
    try {
      for (const [from, to] of [[a, b], [b, c], [c, a]] as const) pending.push(await from.sendTransaction({ to: await to.getAddress(), value: parseEther("0.5"), gasLimit: 21_000n }));
      await provider.send("evm_mine", []);
    } finally {
      await provider.send("evm_setAutomine", [true]);
    }
    await Promise.all(pending.map((t) => t.wait()));
    // A day later, then empty blocks.
    await provider.send("evm_increaseTime", [86_400]);
    for (let i = 0; i < 4; i++) await provider.send("evm_mine", []);
    await mined(a.sendTransaction({ to: await c.getAddress(), value: 1n }));
    log(`blocks scenario: factory ${factory.address} at block ${factory.block}, head ${await provider.getBlockNumber()}`);
    return { factory: factory.address, startBlock: factory.block, pastBlocks: [middle] };
  } finally {
    provider.destroy();
  }
}
