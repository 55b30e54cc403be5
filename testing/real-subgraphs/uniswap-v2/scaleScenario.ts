// The Uniswap v2 scenario at scale (`--pairs N --trades M`): WETH, a dollar-like token and as many more
// ERC-20s as the pairs need; every pair created by the factory and given liquidity by three providers
// through the router; then a stream of M router calls spread over the pairs at random (seeded): swaps
// (80 %), liquidity added (12 %) and removed (8 %), from a dozen accounts, a hundred or so transactions a
// block, the blocks spread over three days. The transactions go in JSON-RPC batches with automine off
// (rpcBatch.ts); every one of them must succeed.
import { Interface, JsonRpcProvider, MaxUint256 } from "ethers";
import { deployApprovalToken, ensureCompiled } from "../../../hardhat/deploy/index.js";
import { deployArtifact, readUniswapArtifact } from "./protocol.js";
import { createRpcBatcher, type PlannedTx } from "./rpcBatch.js";
import type { UniswapDeployment } from "./scenario.js";
import { seededRandom } from "subgraph-workbench/lib/seededRandom";

export interface UniswapScale {
  /** Pairs the factory creates (the WETH/dollar pair first). */
  pairs: number;
  /** Router calls after the pairs' first liquidity: swaps, mints and burns. */
  trades: number;
  seed?: number;
}

/** How the scenario went: its pairs, transactions (set-up ones included), blocks holding them, seconds. */
export interface ScaleGeneration {
  pairs: number;
  transactions: number;
  blocks: number;
  seconds: number;
  swaps: number;
  mints: number;
  burns: number;
}

export interface UniswapScaleDeployment extends UniswapDeployment {
  generation: ScaleGeneration;
}

export function describeGeneration(g: ScaleGeneration): string {
  const setup = g.transactions - g.swaps - g.mints - g.burns;
  return `${g.pairs} pairs; ${g.swaps} swaps, ${g.mints} mints and ${g.burns} burns through the router after ${setup} set-up transactions; ${g.transactions} transactions in ${g.blocks} blocks, sent in ${g.seconds.toFixed(1)} s`;
}

const DEADLINE = 2n ** 40n;
const E18 = 10n ** 18n;
const LP_COUNT = 3;
const TRADER_COUNT = 9;
const STREAM_DAYS = 3;
/** Per-kind gas limits: above what each call uses, low enough that a block holds a hundred. */
const GAS = { approve: 100_000n, transfer: 100_000n, deposit: 100_000n, createPair: 4_000_000n, addLiquidity: 300_000n, removeLiquidity: 300_000n, swap: 250_000n };

const ERC20 = new Interface(["function approve(address spender, uint256 value) returns (bool)", "function transfer(address to, uint256 value) returns (bool)"]);
const WETH = new Interface(["function deposit() payable"]);

/** The smallest token count whose pairs (n choose 2) reach `pairs`. */
export function tokensForPairs(pairs: number): number {
  let n = 2;
  while ((n * (n - 1)) / 2 < pairs) n++;
  return n;
}

/**
 * The first `count` pairs of the tokens (indexes): the WETH/dollar pair (0, 1) first, then each other
 * token with WETH and with the dollar (so that the pricing reaches it), then the others among themselves.
 */
export function pairPlan(tokenCount: number, count: number): [number, number][] {
  const out: [number, number][] = [[0, 1]];
  for (let i = 2; i < tokenCount; i++) out.push([0, i], [1, i]);
  for (let i = 2; i < tokenCount; i++) for (let j = i + 1; j < tokenCount; j++) out.push([i, j]);
  return out.slice(0, count);
}


function sqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

export async function runUniswapScaleScenario(chainUrl: string, scale: UniswapScale, log: (line: string) => void = () => undefined): Promise<UniswapScaleDeployment> {
  if (!Number.isInteger(scale.pairs) || scale.pairs < 1) throw new Error(`--pairs must be a whole number of at least 1, not ${scale.pairs}`);
  if (!Number.isInteger(scale.trades) || scale.trades < 0) throw new Error(`--trades must be a whole number, not ${scale.trades}`);
  const started = Date.now();
  await ensureCompiled();
  const rpc = createRpcBatcher(chainUrl);
  const accounts = (await rpc.request<string[]>("eth_accounts", [])).map((a) => a.toLowerCase());
  if (accounts.length < 1 + LP_COUNT + TRADER_COUNT) throw new Error(`the chain has ${accounts.length} unlocked accounts; the scale scenario needs ${1 + LP_COUNT + TRADER_COUNT}`);
  const [deployerAddress] = accounts as [string];
  const lps = accounts.slice(1, 1 + LP_COUNT);
  const traders = accounts.slice(1 + LP_COUNT, 1 + LP_COUNT + TRADER_COUNT);
  const users = [...lps, ...traders];

  // The protocol, then the tokens: WETH, the dollar, and the rest priced 2, 3, 4... units of account.
  const provider = new JsonRpcProvider(chainUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  let deployment: { weth: string; factory: string; factoryBlock: number; router: string };
  const tokens: string[] = [];
  try {
    const deployer = await provider.getSigner(0);
    const weth = await deployArtifact("WETH9", deployer);
    const factory = await deployArtifact("UniswapV2Factory", deployer, [deployerAddress]);
    const router = await deployArtifact("UniswapV2Router02", deployer, [factory.address, weth.address]);
    deployment = { weth: weth.address.toLowerCase(), factory: factory.address, factoryBlock: factory.block, router: router.address.toLowerCase() };
    tokens.push(deployment.weth);
    const tokenCount = tokensForPairs(scale.pairs);
    const supply = 10n ** 12n * E18;
    tokens.push((await deployApprovalToken({ rpcUrl: chainUrl, name: "Test Dollar", symbol: "TUSD", supply })).proxy.toLowerCase());
    for (let i = 2; i < tokenCount; i++) tokens.push((await deployApprovalToken({ rpcUrl: chainUrl, name: `Scale Token ${i - 1}`, symbol: `SC${i - 1}`, supply })).proxy.toLowerCase());
  } finally {
    provider.destroy();
  }
  // One unit of each token in raw amounts: 1 WETH, 2,000 dollars, i + 1 of the i-th other token.
  const unit = tokens.map((_, i) => (i === 0 ? E18 : i === 1 ? 2_000n * E18 : BigInt(i + 1) * E18));
  log(`deployed WETH9 ${deployment.weth}, factory ${deployment.factory} (block ${deployment.factoryBlock}), router ${deployment.router} and ${tokens.length - 1} ERC-20s`);

  const { abi: routerAbi } = await readUniswapArtifact("UniswapV2Router02");
  const { abi: factoryAbi } = await readUniswapArtifact("UniswapV2Factory");
  const routerIface = new Interface(routerAbi);
  const factoryIface = new Interface(factoryAbi);
  const gasLimit = BigInt((await rpc.request<{ gasLimit: string }>("eth_getBlockByNumber", ["latest", false])).gasLimit);
  const perBlock = (gas: bigint) => Math.max(1, Math.min(120, Number(gasLimit / gas)));
  const hashes: string[] = [];
  const send = async (txs: PlannedTx[], gas: bigint, secondsPerBlock = 12) => hashes.push(...(await rpc.sendInBlocks(txs, { perBlock: perBlock(gas), secondsPerBlock })));

  // Balances and approvals; the pairs created.
  const plan = pairPlan(tokens.length, scale.pairs);
  const setup: PlannedTx[] = [];
  for (const user of users) {
    setup.push({ from: user, to: deployment.weth, data: WETH.encodeFunctionData("deposit", []), gas: GAS.deposit, value: 3_000n * E18 });
    tokens.forEach((token, i) => {
      if (i > 0) setup.push({ from: deployerAddress, to: token, data: ERC20.encodeFunctionData("transfer", [user, 100_000n * unit[i]!]), gas: GAS.transfer });
      setup.push({ from: user, to: token, data: ERC20.encodeFunctionData("approve", [deployment.router, MaxUint256]), gas: GAS.approve });
    });
  }
  await send(setup, GAS.transfer);
  await send(plan.map(([a, b]) => ({ from: deployerAddress, to: deployment.factory, data: factoryIface.encodeFunctionData("createPair", [tokens[a], tokens[b]]), gas: GAS.createPair })), GAS.createPair);
  const pairAddresses: string[] = [];
  for (const [a, b] of plan) {
    const answer = await rpc.request<string>("eth_call", [{ to: deployment.factory, data: factoryIface.encodeFunctionData("getPair", [tokens[a], tokens[b]]) }, "latest"]);
    pairAddresses.push(`0x${answer.slice(-40)}`);
  }
  // Each provider's first liquidity in every pair: 20 units a side; its LP tokens approved to the router.
  const liquidity: PlannedTx[] = [];
  for (const lp of lps) {
    plan.forEach(([a, b], p) => {
      liquidity.push({ from: lp, to: pairAddresses[p]!, data: ERC20.encodeFunctionData("approve", [deployment.router, MaxUint256]), gas: GAS.approve });
      liquidity.push({ from: lp, to: deployment.router, data: routerIface.encodeFunctionData("addLiquidity", [tokens[a], tokens[b], 20n * unit[a]!, 20n * unit[b]!, 0, 0, lp, DEADLINE]), gas: GAS.addLiquidity });
    });
  }
  await send(liquidity, GAS.addLiquidity);
  const afterLiquidity = Number(await rpc.request<string>("eth_blockNumber", []));

  // The stream: each call on a pair picked at random, with amounts small beside the pair's reserves, so
  // that any order of them succeeds.
  const random = seededRandom(scale.seed ?? 54);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const counts = { swaps: 0, mints: 0, burns: 0 };
  const stream: PlannedTx[] = [];
  for (let i = 0; i < scale.trades; i++) {
    const p = Math.floor(random() * plan.length);
    const [a, b] = plan[p] as [number, number];
    const kind = random();
    if (kind < 0.8) {
      const [from, to] = random() < 0.5 ? [a, b] : [b, a];
      const amountIn = (unit[from]! * BigInt(1 + Math.floor(random() * 50))) / 100n;
      const trader = pick(traders);
      stream.push({ from: trader, to: deployment.router, data: routerIface.encodeFunctionData("swapExactTokensForTokens", [amountIn, 0, [tokens[from], tokens[to]], trader, DEADLINE]), gas: GAS.swap });
      counts.swaps++;
    } else if (kind < 0.92) {
      const lp = pick(lps);
      stream.push({ from: lp, to: deployment.router, data: routerIface.encodeFunctionData("addLiquidity", [tokens[a], tokens[b], unit[a]!, 2n * unit[b]!, 0, 0, lp, DEADLINE]), gas: GAS.addLiquidity });
      counts.mints++;
    } else {
      // About a thousandth of a provider's first liquidity in the pair.
      const lp = pick(lps);
      const shares = sqrt(unit[a]! * unit[b]!) / 50n;
      stream.push({ from: lp, to: deployment.router, data: routerIface.encodeFunctionData("removeLiquidity", [tokens[a], tokens[b], shares, 0, 0, lp, DEADLINE]), gas: GAS.removeLiquidity });
      counts.burns++;
    }
  }
  const streamBlocks = Math.max(1, Math.ceil(stream.length / perBlock(GAS.addLiquidity)));
  const before = hashes.length;
  await send(stream, GAS.addLiquidity, Math.ceil((STREAM_DAYS * 86_400) / streamBlocks));
  const middle = afterLiquidity + Math.ceil(streamBlocks / 2);
  await rpc.request("evm_mine", []);
  const mined = await rpc.expectMined(hashes);
  const head = Number(await rpc.request<string>("eth_blockNumber", []));
  const seconds = (Date.now() - started) / 1000;
  log(`scale scenario: ${plan.length} pairs, ${hashes.length - before} calls in the stream (${counts.swaps} swaps, ${counts.mints} mints, ${counts.burns} burns) after ${before} set-up transactions, ${mined.blocks} blocks with transactions, head ${head}; ${seconds.toFixed(1)} s`);

  const [usd, alpha, beta] = [tokens[1]!, tokens[2] ?? tokens[1]!, tokens[3] ?? tokens[1]!];
  return {
    factory: deployment.factory,
    factoryBlock: deployment.factoryBlock,
    router: deployment.router,
    weth: deployment.weth,
    usd,
    alpha,
    beta,
    stablePair: pairAddresses[0]!,
    pastBlocks: [afterLiquidity, middle],
    generation: { pairs: plan.length, transactions: hashes.length, blocks: mined.blocks, seconds, ...counts },
  };
}
