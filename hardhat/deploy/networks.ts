import { readFile, writeFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { projectRoot } from "../projectRoot.js";

/** graph-cli's networks.json: network -> data source name -> {address, startBlock}. */
export type NetworksFile = Record<string, Record<string, { address: string; startBlock?: number }>>;

export const DATA_SOURCE_NAME = "ApprovalToken";
export const defaultNetworksPath = join(projectRoot, "networks.json");

export async function readNetworks(path = defaultNetworksPath): Promise<NetworksFile> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as NetworksFile;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new Error(`networks.json at ${path} is not valid JSON`, { cause });
  }
}

/** Sets one network's entry for the data source, keeping every other network as it was. */
export async function writeNetworkEntry(
  network: string,
  entry: { address: string; startBlock: number },
  path = defaultNetworksPath,
  dataSource = DATA_SOURCE_NAME,
): Promise<NetworksFile> {
  const networks = await readNetworks(path);
  networks[network] = { ...networks[network], [dataSource]: { address: entry.address, startBlock: entry.startBlock } };
  // Write then rename, so a crash never leaves a half-written file.
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(networks, null, 2) + "\n");
  await rename(tmp, path);
  return networks;
}
