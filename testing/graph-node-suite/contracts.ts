// graph-node's test contracts on a fresh chain, deployed and called as tests/src/contract.rs does: the
// same account, order and calls, so that every address and block number is the one the cases' manifests
// and expected answers assume. The compiled artifacts are read from the checkout
// (`tests/contracts/out/<Name>.sol/<Name>.json`).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Contract as EthersContract, ContractFactory, Interface, JsonRpcProvider, getAddress, type InterfaceAbi, type Signer } from "ethers";

/** The chain's first account (the default mnemonic's, as anvil's and Hardhat's nodes both unlock it). */
export const DEPLOYER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

/** contract.rs's list: deployed in this order, at these addresses (nonce order from DEPLOYER). */
export const SUITE_CONTRACTS: { name: string; address: string }[] = [
  { name: "SimpleContract", address: "0x5fbdb2315678afecb367f032d93f642f64180aa3" },
  { name: "LimitedContract", address: "0x0b306bf915c4d645ff596e518faf3f9669b97016" },
  { name: "RevertingContract", address: "0x959922be3caee4b8cd9a407cc3ac1c251c2007b1" },
  { name: "OverloadedContract", address: "0x9a9f2ccfde556a7e9ff0848998aa4a0cfd8863ae" },
  { name: "DeclaredCallsContract", address: "0x68b1d87f95878fe05b998f19b66f4baba5de1aed" },
];

/** The block the harness mines to before any deployment (SUBGRAPH_LAST_GRAFTING_BLOCK). */
export const BLOCKS_BEFORE_CONTRACTS = 3;

const A1 = "0x1111111111111111111111111111111111111111";
const A3 = "0x3333333333333333333333333333333333333333";
const A4 = "0x4444444444444444444444444444444444444444";
const A2 = "0x2222222222222222222222222222222222222222";

/** The calls contract.rs makes right after deploying each contract, in order. */
const AFTER_DEPLOY: Record<string, [string, unknown[]][]> = {
  // Some cases want 10 `emitTrigger`s; topic-filter then needs four `anotherTrigger`s.
  SimpleContract: [
    ...Array.from({ length: 10 }, (_, i): [string, unknown[]] => ["emitTrigger", [i + 1]]),
    ["emitAnotherTrigger", [1, 2, 3, "abc"]],
    ["emitAnotherTrigger", [1, 1, 1, "abc"]],
    ["emitAnotherTrigger", [4, 2, 3, "abc"]],
    ["emitAnotherTrigger", [4, 4, 3, "abc"]],
  ],
  // The declared-calls cases need a transfer, an asset transfer and a complex asset.
  DeclaredCallsContract: [
    ["emitTransfer", [A1, A2, 100]],
    ["emitAssetTransfer", [A1, 150, true, A3]],
    ["emitComplexAssetCreated", [A4, 250, true, "Complex Asset Metadata", [1, 2, 3], 99]],
  ],
};

export interface DeployedContract {
  name: string;
  /** Checksummed, as the harness's `format!("{:?}", address)` writes it into manifests. */
  address: string;
}

export interface DeployResult {
  contracts: DeployedContract[];
  /** Contracts that landed at another address than contract.rs expects (the cases would not see them). */
  moved: string[];
}

export async function deploySuiteContracts(chainUrl: string, testsDir: string, log: (line: string) => void): Promise<DeployResult> {
  const provider = new JsonRpcProvider(chainUrl, undefined, { staticNetwork: true, polling: true, pollingInterval: 50 });
  try {
    // Empty blocks first, so that blocks 1-3 carry no deployment (the grafting case relies on it).
    for (let n = await provider.getBlockNumber(); n < BLOCKS_BEFORE_CONTRACTS; n++) await provider.send("evm_mine", []);
    const signer = await provider.getSigner(DEPLOYER);
    const contracts: DeployedContract[] = [];
    const moved: string[] = [];
    for (const expected of SUITE_CONTRACTS) {
      const artifact = JSON.parse(await readFile(join(testsDir, "contracts", "out", `${expected.name}.sol`, `${expected.name}.json`), "utf8")) as { abi: InterfaceAbi; bytecode: { object: string } };
      const deployed = await new ContractFactory(artifact.abi, artifact.bytecode.object, signer).deploy();
      await deployed.waitForDeployment();
      const address = getAddress(await deployed.getAddress());
      if (address.toLowerCase() !== expected.address) moved.push(`${expected.name} deployed at ${address}, graph-node's harness expects ${expected.address}`);
      log(`deployed ${expected.name} at ${address}`);
      for (const [fn, args] of AFTER_DEPLOY[expected.name] ?? []) await call(signer, address, artifact.abi, fn, args);
      contracts.push({ name: expected.name, address });
    }
    return { contracts, moved };
  } finally {
    provider.destroy();
  }
}

async function call(signer: Signer, address: string, abi: InterfaceAbi, fn: string, args: unknown[]): Promise<void> {
  const contract = new EthersContract(address, new Interface(abi), signer);
  const tx = (await contract.getFunction(fn)(...args)) as { wait(): Promise<unknown> };
  await tx.wait();
}
