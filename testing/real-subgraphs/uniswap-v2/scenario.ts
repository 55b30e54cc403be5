// The Uniswap v2 scenario: WETH, a dollar-like token and two more ERC-20s; pairs created explicitly and
// by the router inside the first addLiquidity (the template's first events come in the transaction that
// creates it); liquidity added and removed with and without ETH, and minted directly on a pair; swaps
// single and multi-hop; a donation picked up by sync(); LP tokens moved between users; one block
// holding several transactions; the days and hours moved on so day and hour data split.
import { Contract, JsonRpcProvider, MaxUint256, parseEther, type Signer, type TransactionResponse } from "ethers";
import { deployApprovalToken, ensureCompiled } from "../../../hardhat/deploy/index.js";
import { deployArtifact, readUniswapArtifact } from "./protocol.js";

export interface UniswapDeployment {
  factory: string;
  factoryBlock: number;
  router: string;
  weth: string;
  /** The dollar-like token: the pricing's stable side. */
  usd: string;
  alpha: string;
  beta: string;
  /** The WETH/USD pair: the pricing's one stable pair. */
  stablePair: string;
  pastBlocks: number[];
}

const ERC20_ABI = [
  "function approve(address spender, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function balanceOf(address owner) view returns (uint256)",
];

const DEADLINE = 2n ** 40n;
const GAS = 3_000_000n;

export async function runUniswapScenario(chainUrl: string, log: (line: string) => void = () => undefined): Promise<UniswapDeployment> {
  await ensureCompiled();
  const provider = new JsonRpcProvider(chainUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  try {
    const [deployer, lp1, lp2, trader1, trader2] = await Promise.all([0, 1, 2, 3, 4].map((i) => provider.getSigner(i)));
    if (!deployer || !lp1 || !lp2 || !trader1 || !trader2) throw new Error("the chain has fewer than 5 unlocked accounts");
    const users: Signer[] = [lp1, lp2, trader1, trader2];

    const weth = await deployArtifact("WETH9", deployer);
    const factory = await deployArtifact("UniswapV2Factory", deployer, [await deployer.getAddress()]);
    const router = await deployArtifact("UniswapV2Router02", deployer, [factory.address, weth.address]);
    const supply = 10_000_000n * 10n ** 18n;
    const usd = (await deployApprovalToken({ rpcUrl: chainUrl, name: "Test Dollar", symbol: "TUSD", supply })).proxy;
    const alpha = (await deployApprovalToken({ rpcUrl: chainUrl, name: "Alpha Token", symbol: "ALPHA", supply })).proxy;
    const beta = (await deployApprovalToken({ rpcUrl: chainUrl, name: "Beta Token", symbol: "BETA", supply })).proxy;
    log(`deployed WETH9 ${weth.address}, factory ${factory.address} (block ${factory.block}), router ${router.address}, tokens ${usd} ${alpha} ${beta}`);

    const token = (address: string, signer: Signer) => new Contract(address, ERC20_ABI, signer);
    for (const user of users) {
      for (const address of [usd, alpha, beta]) {
        await mined(token(address, deployer).getFunction("transfer")(await user.getAddress(), 1_000_000n * 10n ** 18n));
        await mined(token(address, user).getFunction("approve")(router.address, MaxUint256));
      }
    }
    const { abi: routerAbi } = await readUniswapArtifact("UniswapV2Router02");
    const { abi: pairAbi } = await readUniswapArtifact("UniswapV2Pair");
    const routerAs = (signer: Signer) => new Contract(router.address, routerAbi, signer);
    const factoryAs = (signer: Signer) => factory.contract.connect(signer) as Contract;
    const pairOf = async (a: string, b: string) => String(await factory.contract.getFunction("getPair")(a, b));
    const to = (signer: Signer) => signer.getAddress();

    // A pair created on its own, then the first liquidity with ETH: 2,000 dollars per ETH.
    await mined(factoryAs(lp1).getFunction("createPair")(weth.address, usd));
    const stablePair = await pairOf(weth.address, usd);
    await mined(routerAs(lp1).getFunction("addLiquidityETH")(usd, parseEther("200000"), 0, 0, await to(lp1), DEADLINE, { value: parseEther("100") }));
    // Pairs the router creates inside addLiquidity: PairCreated, then the new pair's events, in one transaction.
    await mined(routerAs(lp1).getFunction("addLiquidity")(alpha, beta, parseEther("50000"), parseEther("25000"), 0, 0, await to(lp1), DEADLINE));
    await mined(routerAs(lp2).getFunction("addLiquidityETH")(alpha, parseEther("100000"), 0, 0, await to(lp2), DEADLINE, { value: parseEther("50") }));
    const afterPairs = await provider.getBlockNumber();

    // Several transactions in one block, from different accounts.
    const [trader1Address, trader2Address, lp2Address] = await Promise.all([to(trader1), to(trader2), to(lp2)]);
    await inOneBlock(provider, [
      () => routerAs(trader1).getFunction("swapExactETHForTokens")(0, [weth.address, usd], trader1Address, DEADLINE, { value: parseEther("1"), gasLimit: GAS }),
      () => routerAs(trader2).getFunction("swapExactTokensForTokens")(parseEther("1000"), 0, [alpha, beta], trader2Address, DEADLINE, { gasLimit: GAS }),
      () => routerAs(lp2).getFunction("addLiquidityETH")(usd, parseEther("20000"), 0, 0, lp2Address, DEADLINE, { value: parseEther("10"), gasLimit: GAS }),
    ]);

    // The next day: multi-hop swaps (one Swap per hop, several in one transaction).
    await advance(provider, 86_400);
    await mined(routerAs(trader1).getFunction("swapExactTokensForETH")(parseEther("500"), 0, [beta, alpha, weth.address], await to(trader1), DEADLINE));
    await mined(routerAs(trader2).getFunction("swapExactTokensForTokens")(parseEther("3000"), 0, [usd, weth.address, alpha], await to(trader2), DEADLINE));

    // Straight on a pair, no router: tokens in, then mint; tokens in, then swap.
    const alphaBeta = await pairOf(alpha, beta);
    await mined(token(alpha, trader2).getFunction("transfer")(alphaBeta, parseEther("2000")));
    await mined(token(beta, trader2).getFunction("transfer")(alphaBeta, parseEther("1000")));
    await mined(new Contract(alphaBeta, pairAbi, trader2).getFunction("mint")(await to(trader2)));
    await mined(token(alpha, trader1).getFunction("transfer")(alphaBeta, parseEther("100")));
    const alphaIs0 = alpha.toLowerCase() < beta.toLowerCase();
    const out = parseEther("40");
    await mined(new Contract(alphaBeta, pairAbi, trader1).getFunction("swap")(alphaIs0 ? 0n : out, alphaIs0 ? out : 0n, await to(trader1), "0x"));
    // A donation, picked up by sync(): reserves change with no Mint.
    await mined(token(usd, trader2).getFunction("transfer")(stablePair, parseEther("1000")));
    await mined(new Contract(stablePair, pairAbi, trader2).getFunction("sync")());
    // LP tokens change hands: a plain Transfer of the pair's own token.
    const lpAlphaBeta = new Contract(alphaBeta, [...ERC20_ABI, "function totalSupply() view returns (uint256)"], lp1);
    await mined(lpAlphaBeta.getFunction("transfer")(await to(trader1), parseEther("100")));
    const afterDirect = await provider.getBlockNumber();

    // Hours later: liquidity removed, half with tokens, all of one position with ETH.
    await advance(provider, 5 * 3_600);
    const lp1Shares = BigInt(await lpAlphaBeta.getFunction("balanceOf")(await to(lp1)));
    await mined(new Contract(alphaBeta, ERC20_ABI, lp1).getFunction("approve")(router.address, MaxUint256));
    await mined(routerAs(lp1).getFunction("removeLiquidity")(alpha, beta, lp1Shares / 2n, 0, 0, await to(lp1), DEADLINE));
    const alphaWeth = await pairOf(alpha, weth.address);
    const lp2Shares = BigInt(await new Contract(alphaWeth, ERC20_ABI, lp2).getFunction("balanceOf")(await to(lp2)));
    await mined(new Contract(alphaWeth, ERC20_ABI, lp2).getFunction("approve")(router.address, MaxUint256));
    await mined(routerAs(lp2).getFunction("removeLiquidityETH")(alpha, lp2Shares, 0, 0, await to(lp2), DEADLINE));
    await mined(routerAs(trader1).getFunction("swapExactETHForTokens")(0, [weth.address, usd], await to(trader1), DEADLINE, { value: parseEther("2") }));
    // A few empty blocks at the end.
    for (let i = 0; i < 3; i++) await provider.send("evm_mine", []);
    log(`scenario up to block ${await provider.getBlockNumber()}`);

    return { factory: factory.address, factoryBlock: factory.block, router: router.address, weth: weth.address, usd, alpha, beta, stablePair, pastBlocks: [afterPairs, afterDirect] };
  } finally {
    provider.destroy();
  }
}

async function mined(sent: Promise<TransactionResponse>): Promise<void> {
  const receipt = await (await sent).wait();
  if (!receipt || receipt.status !== 1) throw new Error(`transaction ${receipt?.hash ?? "?"} failed`);
}

/** Sends transactions (in this order) with automine off, then mines them into one block. */
async function inOneBlock(provider: JsonRpcProvider, sends: (() => Promise<TransactionResponse>)[]): Promise<void> {
  await provider.send("evm_setAutomine", [false]);
  const responses: TransactionResponse[] = [];
  try {
    for (const send of sends) responses.push(await send());
    await provider.send("evm_mine", []);
  } finally {
    await provider.send("evm_setAutomine", [true]);
  }
  const receipts = await Promise.all(responses.map((r) => r.wait()));
  const blocks = new Set(receipts.map((r) => r?.blockNumber));
  if (blocks.size !== 1 || receipts.some((r) => r?.status !== 1)) throw new Error(`the batch did not land in one block, all successful: blocks ${[...blocks].join(", ")}`);
}

async function advance(provider: JsonRpcProvider, seconds: number): Promise<void> {
  await provider.send("evm_increaseTime", [seconds]);
  await provider.send("evm_mine", []);
}
