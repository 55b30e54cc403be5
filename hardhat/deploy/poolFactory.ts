// The factory-pattern test contracts (hardhat/contracts/test/PoolFactory.sol) on a chain: deploy the
// factory, then a scenario that creates pools (one and several per block), deposits from two
// accounts, opens vaults from pools (nested factories) and pings them, and reads the chain's own
// state back for the tests to compare with.
import { Contract, ContractFactory, type Signer } from "ethers";
import { readArtifact } from "./artifacts.js";
import { connectChain } from "./signers.js";

const SOURCE = "test/PoolFactory.sol";

export interface DeployedPoolFactory {
  factory: string;
  startBlock: number;
}

export async function deployPoolFactory(params: { rpcUrl: string }): Promise<DeployedPoolFactory> {
  const { provider, signers } = await connectChain(params.rpcUrl);
  try {
    const artifact = await readArtifact("PoolFactory", SOURCE);
    const factory = await new ContractFactory(artifact.abi, artifact.bytecode, signers[0] as Signer).deploy();
    const receipt = await factory.deploymentTransaction()?.wait();
    if (!receipt) throw new Error("The factory deployment transaction has no receipt");
    return { factory: (await factory.getAddress()).toLowerCase(), startBlock: receipt.blockNumber };
  } finally {
    provider.destroy();
  }
}

export interface FactoryActivity {
  pools: string[];
  vaults: string[];
  /** Blocks in which something happened, ascending. */
  blocks: number[];
}

/**
 * `rounds` rounds; in each: one pool alone, then `batch` pools in one transaction, deposits from
 * accounts 0 and 1 into every pool so far, a vault opened from the round's first pool and pinged
 * three times (twice from account 1).
 */
export async function runFactoryScenario(params: { rpcUrl: string; factory: string; rounds?: number; batch?: number }): Promise<FactoryActivity> {
  const { provider, signers } = await connectChain(params.rpcUrl);
  const [factoryArt, poolArt, vaultArt] = await Promise.all([readArtifact("PoolFactory", SOURCE), readArtifact("Pool", SOURCE), readArtifact("Vault", SOURCE)]);
  const blocks = new Set<number>();
  const send = async (contract: Contract, method: string, args: unknown[]): Promise<void> => {
    const tx = (await contract.getFunction(method)(...args)) as { wait(): Promise<{ blockNumber: number } | null> };
    const receipt = await tx.wait();
    if (receipt) blocks.add(receipt.blockNumber);
  };
  try {
    const owner = signers[0] as Signer;
    const other = signers[1] as Signer;
    const factory = new Contract(params.factory, factoryArt.abi, owner);
    const vaults: string[] = [];
    for (let round = 0; round < (params.rounds ?? 2); round++) {
      await send(factory, "createPool", [BigInt(100 + round)]);
      await send(factory, "createPools", [BigInt(params.batch ?? 3), 0n]);
      const count = Number(await factory.getFunction("poolCount")());
      for (let i = 0; i < count; i++) {
        const pool = String(await factory.getFunction("pools")(i));
        await send(new Contract(pool, poolArt.abi, owner), "deposit", [BigInt(1_000 * (round + 1) + i)]);
        await send(new Contract(pool, poolArt.abi, other), "deposit", [BigInt(7 + i)]);
      }
      const first = String(await factory.getFunction("pools")(count - 1 - (params.batch ?? 3)));
      const pool = new Contract(first, poolArt.abi, owner);
      const vault = String(await pool.getFunction("openVault").staticCall());
      await send(pool, "openVault", []);
      vaults.push(vault.toLowerCase());
      // Two pings from account 1, one from account 0.
      for (const from of [other, owner, other]) await send(new Contract(vault, vaultArt.abi, from), "ping", []);
    }
    const count = Number(await factory.getFunction("poolCount")());
    const pools: string[] = [];
    for (let i = 0; i < count; i++) pools.push(String(await factory.getFunction("pools")(i)).toLowerCase());
    return { pools, vaults, blocks: [...blocks].sort((a, b) => a - b) };
  } finally {
    provider.destroy();
  }
}

/** The chain's own view of a pool and a vault, for assertions. */
export async function readPoolState(params: { rpcUrl: string; pool: string }): Promise<{ total: bigint; deposits: bigint }> {
  const { provider } = await connectChain(params.rpcUrl);
  try {
    const pool = new Contract(params.pool, (await readArtifact("Pool", SOURCE)).abi, provider);
    return { total: (await pool.getFunction("total")()) as bigint, deposits: (await pool.getFunction("deposits")()) as bigint };
  } finally {
    provider.destroy();
  }
}

export async function readVaultPings(params: { rpcUrl: string; vault: string }): Promise<bigint> {
  const { provider } = await connectChain(params.rpcUrl);
  try {
    return (await new Contract(params.vault, (await readArtifact("Vault", SOURCE)).abi, provider).getFunction("pings")()) as bigint;
  } finally {
    provider.destroy();
  }
}
