import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Contract, ContractFactory, Interface, JsonRpcProvider, MaxUint256, type Signer, id as topicOf } from "ethers";
import { startHardhatNode, type HardhatNode } from "../chain/hardhatNode.js";
import { deployApprovalToken, type DeployedApprovalToken } from "../deploy/deployToken.js";
import { readArtifact } from "../deploy/artifacts.js";

let chain: HardhatNode;
let provider: JsonRpcProvider;
let deployed: DeployedApprovalToken;
let tokenAbi: Interface;
let admin: Signer;
let alice: Signer;
let bob: Signer;

beforeAll(async () => {
  chain = await startHardhatNode();
  deployed = await deployApprovalToken({ rpcUrl: chain.url });
  provider = new JsonRpcProvider(chain.url, undefined, { staticNetwork: true, pollingInterval: 50 });
  admin = await provider.getSigner(0);
  alice = await provider.getSigner(1);
  bob = await provider.getSigner(2);
  tokenAbi = new Interface((await readArtifact("ApprovalToken")).abi);
});

afterAll(async () => {
  provider?.destroy();
  await chain?.stop();
});

function tokenAt(signer: Signer): Contract {
  return new Contract(deployed.proxy, tokenAbi, signer);
}

describe("ApprovalToken behind the EIP-897 DelegateProxy", () => {
  it("emits Approval from the proxy address, decodable with the implementation ABI", async () => {
    const spender = await bob.getAddress();
    const tx = await tokenAt(alice).getFunction("approve")(spender, 1234n);
    const receipt = await tx.wait();
    expect(receipt.logs).toHaveLength(1);
    const log = receipt.logs[0];
    expect(log.address).toBe(deployed.proxy);
    expect(log.address).not.toBe(deployed.implementation);
    expect(log.topics[0]).toBe(topicOf("Approval(address,address,uint256)"));
    const parsed = tokenAbi.parseLog(log);
    expect(parsed?.name).toBe("Approval");
    expect(parsed?.args.owner).toBe(await alice.getAddress());
    expect(parsed?.args.spender).toBe(spender);
    expect(parsed?.args.value).toBe(1234n);
  });

  it("emits one standard Approval per spender from approveMany, including 0 and 2^256-1", async () => {
    const spenders = [await admin.getAddress(), await bob.getAddress(), "0x000000000000000000000000000000000000dEaD"];
    const values = [0n, MaxUint256, 5n];
    const receipt = await (await tokenAt(alice).getFunction("approveMany")(spenders, values)).wait();
    const decoded = receipt.logs.map((log: { address: string; topics: string[]; data: string }) => {
      expect(log.address).toBe(deployed.proxy);
      return tokenAbi.parseLog(log)?.args.toObject();
    });
    expect(decoded.map((d: { spender: string }) => d.spender)).toEqual(spenders);
    expect(decoded.map((d: { value: bigint }) => d.value)).toEqual(values);
    expect(await tokenAt(alice).getFunction("allowance")(await alice.getAddress(), spenders[1])).toBe(MaxUint256);
  });

  it("rejects approveMany with mismatched lengths", async () => {
    await expect(tokenAt(alice).getFunction("approveMany")([await bob.getAddress()], [])).rejects.toThrow(/length mismatch/);
  });

  it("answers proxyType() = 2 and implementation() per EIP-897", async () => {
    const proxy = new Contract(deployed.proxy, (await readArtifact("DelegateProxy")).abi, provider);
    expect(await proxy.getFunction("proxyType")()).toBe(2n);
    expect(await proxy.getFunction("implementation")()).toBe(deployed.implementation);
  });

  it("was initialised through the proxy, not on the implementation", async () => {
    const viaProxy = new Contract(deployed.proxy, tokenAbi, provider);
    expect(await viaProxy.getFunction("name")()).toBe("Approval Token");
    expect(await viaProxy.getFunction("balanceOf")(deployed.deployer)).toBe(1_000_000n * 10n ** 18n);
    const direct = new Contract(deployed.implementation, tokenAbi, provider);
    expect(await direct.getFunction("totalSupply")()).toBe(0n);
  });

  it("keeps balances and allowances across an upgrade, and only the admin can upgrade", async () => {
    const aliceAddress = await alice.getAddress();
    const bobAddress = await bob.getAddress();
    await (await tokenAt(admin).getFunction("transfer")(aliceAddress, 777n)).wait();
    await (await tokenAt(alice).getFunction("approve")(bobAddress, 4242n)).wait();

    const v2Artifact = await readArtifact("ApprovalTokenV2");
    const v2 = await new ContractFactory(v2Artifact.abi, v2Artifact.bytecode, admin).deploy();
    await v2.waitForDeployment();
    const v2Address = await v2.getAddress();
    const proxyAbi = (await readArtifact("DelegateProxy")).abi;

    const asAlice = new Contract(deployed.proxy, proxyAbi, alice);
    await expect(asAlice.getFunction("upgradeTo")(v2Address)).rejects.toThrow();
    expect(await asAlice.getFunction("implementation")()).toBe(deployed.implementation);

    const asAdmin = new Contract(deployed.proxy, proxyAbi, admin);
    await (await asAdmin.getFunction("upgradeTo")(v2Address)).wait();
    expect(await asAdmin.getFunction("implementation")()).toBe(v2Address);

    const upgraded = new Contract(deployed.proxy, v2Artifact.abi, provider);
    expect(await upgraded.getFunction("version")()).toBe("2");
    expect(await upgraded.getFunction("balanceOf")(aliceAddress)).toBe(777n);
    expect(await upgraded.getFunction("allowance")(aliceAddress, bobAddress)).toBe(4242n);
  });

  it("refuses an implementation that is not a contract", async () => {
    const proxy = new Contract(deployed.proxy, (await readArtifact("DelegateProxy")).abi, admin);
    await expect(proxy.getFunction("upgradeTo")("0x000000000000000000000000000000000000dEaD")).rejects.toThrow();
  });
});
