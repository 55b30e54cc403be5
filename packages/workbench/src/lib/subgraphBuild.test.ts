import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile, rm, mkdtemp } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { startHardhatNode, type HardhatNode } from "../../../../hardhat/chain/hardhatNode.js";
import { deployApprovalToken, type DeployedApprovalToken } from "../../../../hardhat/deploy/deployToken.js";
import { readArtifact } from "../../../../hardhat/deploy/artifacts.js";
import { readNetworks, writeNetworkEntry } from "../../../../hardhat/deploy/networks.js";
import { projectRoot } from "../../../../hardhat/projectRoot.js";
import { buildSubgraph, type BuiltSubgraph } from "./subgraphBuild.js";

interface BuiltManifest {
  specVersion: string;
  dataSources: {
    kind: string;
    network: string;
    source: { address: string; abi: string; startBlock: number };
    mapping: { apiVersion: string; kind: string; language: string; entities: string[]; abis: { name: string; file: string }[]; eventHandlers: { event: string; handler: string }[]; file: string };
  }[];
}

let chain: HardhatNode;
let deployed: DeployedApprovalToken;
let built: BuiltSubgraph;

beforeAll(async () => {
  chain = await startHardhatNode();
  deployed = await deployApprovalToken({ rpcUrl: chain.url });
  built = await buildSubgraph({ address: deployed.proxy, startBlock: deployed.startBlock });
});

afterAll(async () => {
  await chain?.stop();
  if (built) await rm(built.workDir, { recursive: true, force: true });
});

describe("the built subgraph", () => {
  it("indexes the proxy address from its deployment block, with the implementation's ABI", async () => {
    const manifest = parse(await readFile(built.manifestPath, "utf8")) as BuiltManifest;
    expect(manifest.specVersion).toBe("0.0.5");
    expect(manifest.dataSources).toHaveLength(1);
    const [ds] = manifest.dataSources;
    expect(ds?.kind).toBe("ethereum");
    expect(ds?.source.address.toLowerCase()).toBe(deployed.proxy.toLowerCase());
    expect(ds?.source.startBlock).toBe(deployed.startBlock);
    expect(ds?.source.abi).toBe("ApprovalToken");
    expect(ds?.mapping).toMatchObject({ kind: "ethereum/events", apiVersion: "0.0.7", language: "wasm/assemblyscript", entities: ["ApprovalQuery"] });
    expect(ds?.mapping.eventHandlers).toEqual([{ event: "Approval(indexed address,indexed address,uint256)", handler: "ApprovalHandler" }]);

    const abiFile = ds?.mapping.abis.find((a) => a.name === "ApprovalToken")?.file ?? "";
    const builtAbi = JSON.parse(await readFile(join(built.buildDir, abiFile), "utf8")) as { name?: string; type: string }[];
    const implementation = (await readArtifact("ApprovalToken")).abi as { name?: string; type: string }[];
    expect(builtAbi).toEqual(implementation);
    // The implementation's ABI, not the proxy's: it has the ERC-20 event and none of the proxy's functions.
    expect(builtAbi.some((e) => e.type === "event" && e.name === "Approval")).toBe(true);
    expect(builtAbi.some((e) => e.name === "proxyType")).toBe(false);
    expect(existsSync(join(built.buildDir, ds?.mapping.file ?? "missing"))).toBe(true);
  });

  it("keeps abis/ in step with the Hardhat artifact (`npm run abi`)", async () => {
    const committed = JSON.parse(await readFile(join(projectRoot, "abis", "ApprovalToken.json"), "utf8")) as unknown;
    expect(committed).toEqual((await readArtifact("ApprovalToken")).abi);
  });
});

describe("networks.json updates", () => {
  it("sets one network's entry and keeps the others", async () => {
    const dir = await mkdtemp(join(tmpdir(), "networks-"));
    const path = join(dir, "networks.json");
    await writeNetworkEntry("mainnet", { address: "0x0000000000000000000000000000000000000001", startBlock: 100 }, path);
    await writeNetworkEntry("localhost", { address: deployed.proxy, startBlock: deployed.startBlock }, path);
    await writeNetworkEntry("localhost", { address: deployed.proxy, startBlock: deployed.startBlock + 1 }, path);
    expect(await readNetworks(path)).toEqual({
      mainnet: { ApprovalToken: { address: "0x0000000000000000000000000000000000000001", startBlock: 100 } },
      localhost: { ApprovalToken: { address: deployed.proxy, startBlock: deployed.startBlock + 1 } },
    });
    await rm(dir, { recursive: true, force: true });
  });
});
