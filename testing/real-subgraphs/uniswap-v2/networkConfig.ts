// The network config for a Hardhat chain, written into the scratch copy the way Uniswap/v2-subgraph keeps
// one per network: `config/<network>/config.json` (what its manifest template fills in) and
// `config/<network>/chain.ts` (the per-network constants its mappings import as `src/common/chain.ts`).
// Then what its build script does for a network: the constants copied into `src/common/`, the template
// `v2-subgraph.template.yaml` rendered with config.json (here to `subgraph.yaml`, the name graph-cli and
// the parity harness build). Nothing else in the subgraph changes.
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderTemplate } from "../template.js";
import type { UniswapDeployment } from "./scenario.js";

export const MANIFEST_TEMPLATE = "v2-subgraph.template.yaml";

/** Per-network thresholds of the pricing (mainnet uses 400,000 USD and 2 ETH; a test chain has less). */
export const PRICING_THRESHOLDS = { minimumUsdNewPairs: "1000", minimumLiquidityEth: "1" };

export async function writeNetworkConfig(sourceDir: string, network: string, deployment: UniswapDeployment): Promise<void> {
  const dir = join(sourceDir, "config", network);
  await mkdir(dir, { recursive: true });
  const config = { network, factory: deployment.factory, startblock: String(deployment.factoryBlock) };
  await writeFile(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
  await writeFile(join(dir, "chain.ts"), chainConstants(deployment));
  await writeFile(join(dir, ".subgraph-env"), `V2_SUBGRAPH_NAME="real/uniswap-v2"\nV2_SUBGRAPH_VERSION="local"\n`);

  // The repository's per-network build steps.
  await copyFile(join(dir, "chain.ts"), join(sourceDir, "src", "common", "chain.ts"));
  await copyFile(join(dir, ".subgraph-env"), join(sourceDir, ".subgraph-env"));
  const template = await readFile(join(sourceDir, MANIFEST_TEMPLATE), "utf8");
  await writeFile(join(sourceDir, "subgraph.yaml"), renderTemplate(template, config));
}

/**
 * The constants the mappings import from `src/common/chain.ts`: the factory, WETH as the reference token,
 * the one WETH/dollar pair that prices ETH, the whitelist for tracked volume, and the thresholds.
 */
function chainConstants(d: UniswapDeployment): string {
  const lower = (a: string) => `'${a.toLowerCase()}'`;
  return `// Network constants for a local Hardhat chain (written by parity/real-subgraphs).
import { Address, BigDecimal, BigInt } from '@graphprotocol/graph-ts/index'

export const FACTORY_ADDRESS = '${d.factory}'

export const REFERENCE_TOKEN = ${lower(d.weth)}
export const STABLE_TOKEN_PAIRS: string[] = [${lower(d.stablePair)}]

export const WHITELIST: string[] = [${lower(d.weth)}, ${lower(d.usd)}]

export const STABLECOINS: string[] = []

export const MINIMUM_USD_THRESHOLD_NEW_PAIRS = BigDecimal.fromString('${PRICING_THRESHOLDS.minimumUsdNewPairs}')

export const MINIMUM_LIQUIDITY_THRESHOLD_ETH = BigDecimal.fromString('${PRICING_THRESHOLDS.minimumLiquidityEth}')

export class TokenDefinition {
  address: Address
  symbol: string
  name: string
  decimals: BigInt
}

export const STATIC_TOKEN_DEFINITIONS: TokenDefinition[] = []

export const SKIP_TOTAL_SUPPLY: string[] = []
`;
}
