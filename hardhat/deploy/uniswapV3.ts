// A Uniswap v3 pool on a chain, from npm's own artifacts (@uniswap/v3-core's factory and pool,
// @uniswap/v3-periphery's NonfungiblePositionManager): two BenchTokens, the factory, one 0.3% pool created
// and initialised at price 1 through the position manager, full-range liquidity minted through it, and our
// UniswapV3SwapDriver funded to swap densely (with narrow positions minted and burned among the swaps).
import { createRequire } from "node:module";
import { Contract, ContractFactory, MaxUint256, ZeroAddress, type InterfaceAbi, type Signer } from "ethers";
import { readArtifact } from "./artifacts.js";
import { connectChain } from "./signers.js";

const require = createRequire(import.meta.url);

/** An artifact of a Uniswap npm package (Hardhat's format: abi and bytecode). */
export function uniswapArtifact(path: string): { abi: InterfaceAbi & unknown[]; bytecode: string } {
  return require(path) as { abi: InterfaceAbi & unknown[]; bytecode: string };
}
export const UNISWAP_V3_POOL_ARTIFACT = "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json";
const FACTORY_ARTIFACT = "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json";
const POSITION_MANAGER_ARTIFACT = "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json";

const FEE = 3000;
/** sqrt(1) in Q64.96: both tokens at par. */
const PRICE_ONE = 1n << 96n;
/** The widest range a 60-spaced pool takes (TickMath's bounds rounded to the spacing). */
const FULL_RANGE = { lower: -887220, upper: 887220 };
const SUPPLY = 10n ** 36n;
const SWAP_GAS = 45_000n;
const MOVE_GAS = 400_000n;
/** EIP-7825's cap on one transaction's gas (Hardhat's default hardfork has it). */
const TRANSACTION_GAS_CAP = 16_777_216n;
const FULL_RANGE_DEPOSIT = 10n ** 27n;

export interface DeployedUniswapV3Pool {
  pool: string;
  token0: string;
  token1: string;
  factory: string;
  positionManager: string;
  driver: string;
  /** The block the pool was created in: every indexer's start block. */
  startBlock: number;
  chainId: bigint;
}

type Sent = { hash: string; wait(): Promise<{ blockNumber: number; status?: number | null } | null> };

async function mined(sent: Promise<unknown>, what: string): Promise<number> {
  const receipt = await ((await sent) as Sent).wait();
  if (!receipt || receipt.status === 0) throw new Error(`${what} failed on the chain`);
  return receipt.blockNumber;
}

async function deploy(artifact: { abi: InterfaceAbi; bytecode: string }, signer: Signer, args: unknown[] = []): Promise<string> {
  const contract = await new ContractFactory(artifact.abi, artifact.bytecode, signer).deploy(...args);
  await contract.waitForDeployment();
  return (await contract.getAddress()).toLowerCase();
}

export async function deployUniswapV3Pool(params: { rpcUrl: string }): Promise<DeployedUniswapV3Pool> {
  const { provider, signers } = await connectChain(params.rpcUrl);
  try {
    const deployer = signers[0] as Signer;
    const holder = await deployer.getAddress();
    const tokenArtifact = await readArtifact("BenchToken", "bench/BenchToken.sol");
    const a = await deploy(tokenArtifact, deployer, ["Bench Token A", "BTA", holder, SUPPLY]);
    const b = await deploy(tokenArtifact, deployer, ["Bench Token B", "BTB", holder, SUPPLY]);
    const [token0, token1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
    const factory = await deploy(uniswapArtifact(FACTORY_ARTIFACT), deployer);
    // No WETH9 and no token descriptor: neither plain ERC-20 pair nor the bench reads a token URI needs one.
    const positionManager = await deploy(uniswapArtifact(POSITION_MANAGER_ARTIFACT), deployer, [factory, ZeroAddress, ZeroAddress]);
    const manager = new Contract(positionManager, uniswapArtifact(POSITION_MANAGER_ARTIFACT).abi, deployer);
    const startBlock = await mined(manager.getFunction("createAndInitializePoolIfNecessary")(token0, token1, FEE, PRICE_ONE), "creating and initialising the pool");
    const pool = String(await new Contract(factory, uniswapArtifact(FACTORY_ARTIFACT).abi, provider).getFunction("getPool")(token0, token1, FEE)).toLowerCase();
    for (const token of [token0, token1]) await mined(new Contract(token, tokenArtifact.abi, deployer).getFunction("approve")(positionManager, MaxUint256), "approving the position manager");
    await mined(
      manager.getFunction("mint")({
        token0,
        token1,
        fee: FEE,
        tickLower: FULL_RANGE.lower,
        tickUpper: FULL_RANGE.upper,
        amount0Desired: FULL_RANGE_DEPOSIT,
        amount1Desired: FULL_RANGE_DEPOSIT,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: holder,
        deadline: MaxUint256,
      }),
      "minting the full-range position",
    );
    const driver = await deploy(await readArtifact("UniswapV3SwapDriver", "bench/UniswapV3SwapDriver.sol"), deployer, [pool]);
    for (const token of [token0, token1]) await mined(new Contract(token, tokenArtifact.abi, deployer).getFunction("transfer")(driver, SUPPLY / 4n), "funding the driver");
    return { pool, token0, token1, factory, positionManager, driver, startBlock, chainId: (await provider.getNetwork()).chainId };
  } finally {
    provider.destroy();
  }
}

export interface SendSwapsParameters {
  rpcUrl: string;
  driver: string;
  count: number;
  /** Swaps per transaction (default 300: about 10M gas, under the 16,777,216 a transaction may take since Osaka). */
  batchSize?: number;
  /** A narrow position is minted (and the previous one burned) every this many swaps (default 50). */
  mintEvery?: number;
}

export interface SentSwaps {
  swaps: number;
  transactions: number;
  firstBlock: number;
  lastBlock: number;
}

/** `count` Swap events from the pool, `batchSize` per transaction through the driver. */
export async function sendSwaps(params: SendSwapsParameters): Promise<SentSwaps> {
  const { provider, signers } = await connectChain(params.rpcUrl);
  try {
    const driver = new Contract(params.driver, (await readArtifact("UniswapV3SwapDriver", "bench/UniswapV3SwapDriver.sol")).abi, signers[0] as Signer);
    const batchSize = Math.max(1, params.batchSize ?? 300);
    const mintEvery = params.mintEvery ?? 50;
    let firstBlock = Number.POSITIVE_INFINITY;
    let lastBlock = 0;
    let transactions = 0;
    for (let first = 0; first < params.count; first += batchSize) {
      const count = Math.min(batchSize, params.count - first);
      // A gas limit of our own: ethers' estimate runs the whole batch again and again (EDR's binary search),
      // five times the cost of sending it. About 34k gas a swap here; a mint and a burn add about 250k.
      const wanted = BigInt(count) * SWAP_GAS + BigInt(Math.ceil(count / mintEvery) + 1) * MOVE_GAS;
      const gasLimit = wanted < TRANSACTION_GAS_CAP ? wanted : TRANSACTION_GAS_CAP;
      const block = await mined(driver.getFunction("run")(first, count, 10n ** 18n, mintEvery, 10n ** 21n, { gasLimit }), `swaps ${first} to ${first + count - 1}`);
      firstBlock = Math.min(firstBlock, block);
      lastBlock = Math.max(lastBlock, block);
      transactions++;
    }
    return { swaps: params.count, transactions, firstBlock: Number.isFinite(firstBlock) ? firstBlock : 0, lastBlock };
  } finally {
    provider.destroy();
  }
}
