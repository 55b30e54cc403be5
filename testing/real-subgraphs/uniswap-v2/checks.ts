// An engine's Uniswap v2 entities against the chain: the factory's pairs and counts (allPairsLength,
// allPairs), each pair's tokens, reserves (getReserves) and LP supply (totalSupply, less the locked
// minimum), the tokens' metadata (name, symbol, decimals, totalSupply by eth_call), every Mint, Burn and
// Swap against its event, transactions and users, volumes and counts by pair, token, day and hour, the
// ETH price from the stable pair's reserves, and the same pairs, reserves and event counts at past blocks.
import { fromRaw } from "../decimal.js";
import type { CheckContext } from "../types.js";
import type { PairState, UniswapChainState } from "./chainState.js";
import { deriveExpectations } from "./expectations.js";
import type { UniswapDeployment } from "./scenario.js";

type Row = Record<string, unknown>;

const idOf = (value: unknown) => (value && typeof value === "object" ? (value as { id?: unknown }).id : value);
const byId = (rows: Row[]) => new Map(rows.map((r) => [String(r.id), r]));
const short = (address: string) => address.slice(0, 10);

export async function checkUniswapEntities(d: UniswapDeployment, ctx: CheckContext, state: UniswapChainState, past: UniswapChainState[]): Promise<void> {
  const { checks } = ctx;
  const expected = deriveExpectations(state);
  const decimalsOf = (token: string) => state.tokens.get(token)?.decimals ?? 18;
  const pairOf = new Map(state.pairs.map((p) => [p.address, p]));

  // The factory and its pairs.
  const factories = await ctx.entities("UniswapFactory");
  checks.equal("UniswapFactory: one entity, id = the configured FACTORY_ADDRESS", factories.map((f) => f.id), [d.factory]);
  checks.equal("UniswapFactory.pairCount = allPairsLength()", factories[0]?.pairCount, state.pairs.length);
  checks.equal("UniswapFactory.txCount = Mint + Burn + Swap events", factories[0]?.txCount, String(expected.txCount));

  const pairs = byId(await ctx.entities("Pair"));
  checks.sameSet("Pair ids = allPairs()", pairs.keys(), state.pairs.map((p) => p.address));
  for (const p of state.pairs) {
    const row = pairs.get(p.address) ?? {};
    const name = `Pair ${short(p.address)}`;
    const t = expected.pairs.get(p.address) ?? { txns: 0, volume0: 0n, volume1: 0n };
    checks.equal(`${name} token0, token1 = token0(), token1()`, [idOf(row.token0), idOf(row.token1)], [p.token0, p.token1]);
    checks.decimal(`${name} reserve0 = getReserves()`, row.reserve0, fromRaw(p.reserve0, decimalsOf(p.token0)));
    checks.decimal(`${name} reserve1 = getReserves()`, row.reserve1, fromRaw(p.reserve1, decimalsOf(p.token1)));
    checks.decimal(`${name} totalSupply = totalSupply() - locked minimum`, row.totalSupply, fromRaw(p.totalSupply - p.locked, 18));
    checks.equal(`${name} txCount = its Mint + Burn + Swap events`, row.txCount, String(t.txns));
    checks.decimal(`${name} volumeToken0 = its swaps' token0 in + out`, row.volumeToken0, fromRaw(t.volume0, decimalsOf(p.token0)));
    checks.decimal(`${name} volumeToken1 = its swaps' token1 in + out`, row.volumeToken1, fromRaw(t.volume1, decimalsOf(p.token1)));
    checks.equal(`${name} createdAtBlockNumber, createdAtTimestamp = PairCreated's block`, [row.createdAtBlockNumber, row.createdAtTimestamp], [String(p.createdBlock), String(p.createdTimestamp)]);
    checks.ratio(`${name} token0Price = reserve0 / reserve1`, row.token0Price, ...scaledRatio(p, decimalsOf, "token0"));
    checks.ratio(`${name} token1Price = reserve1 / reserve0`, row.token1Price, ...scaledRatio(p, decimalsOf, "token1"));
  }

  // Tokens: eth_call metadata, activity, volume and liquidity over their pairs.
  const tokens = byId(await ctx.entities("Token"));
  checks.sameSet("Token ids = the pairs' token0() and token1()", tokens.keys(), state.tokens.keys());
  for (const token of state.tokens.values()) {
    const row = tokens.get(token.address) ?? {};
    const name = `Token ${token.symbol}`;
    const t = expected.tokens.get(token.address) ?? { txns: 0, volume0: 0n, volume1: 0n };
    checks.equal(`${name} name, symbol, decimals = name(), symbol(), decimals()`, [row.name, row.symbol, row.decimals], [token.name, token.symbol, String(token.decimals)]);
    checks.equal(`${name} totalSupply = totalSupply() when its first pair was created`, row.totalSupply, String(token.totalSupplyAtFirstPair));
    checks.equal(`${name} txCount = Mint + Burn + Swap events on its pairs`, row.txCount, String(t.txns));
    checks.decimal(`${name} tradeVolume = its swapped amounts`, row.tradeVolume, fromRaw(t.volume0, token.decimals));
    const liquidity = state.pairs.reduce((sum, p) => sum + (p.token0 === token.address ? p.reserve0 : 0n) + (p.token1 === token.address ? p.reserve1 : 0n), 0n);
    checks.decimal(`${name} totalLiquidity = its reserves over all pairs`, row.totalLiquidity, fromRaw(liquidity, token.decimals));
  }
  checks.decimal("Token WETH derivedETH = 1 (the reference token)", tokens.get(d.weth.toLowerCase())?.derivedETH, fromRaw(1n, 0));

  const lookups = byId(await ctx.entities("PairTokenLookup"));
  const expectedLookups = new Map(state.pairs.flatMap((p) => [[`${p.token0}-${p.token1}`, p.address], [`${p.token1}-${p.token0}`, p.address]]));
  checks.sameSet("PairTokenLookup ids = both token orders of every pair", lookups.keys(), expectedLookups.keys());
  checks.equal("PairTokenLookup.pair = the pair of those tokens", [...expectedLookups.keys()].map((k) => idOf(lookups.get(k)?.pair)), [...expectedLookups.values()]);

  // ETH priced by the one stable pair: dollars per WETH in its reserves.
  const stable = pairOf.get(d.stablePair.toLowerCase());
  const bundle = (await ctx.entities("Bundle")).find((b) => b.id === "1");
  if (stable) {
    const wethIs0 = stable.token0 === d.weth.toLowerCase();
    checks.ratio("Bundle 1 ethPrice = the stable pair's dollar reserve / WETH reserve", bundle?.ethPrice, wethIs0 ? stable.reserve1 : stable.reserve0, wethIs0 ? stable.reserve0 : stable.reserve1);
  } else checks.equal("the stable pair exists on chain", null, d.stablePair);

  // Every Mint, Burn and Swap against its event.
  const events = async (type: string) => new Map((await ctx.entities(type)).map((r) => [`${String(r.id).split("-")[0]}@${String(r.logIndex)}`, r]));
  const mints = await events("Mint");
  checks.sameSet("Mint entities = Mint events (transaction, log index)", mints.keys(), expected.mints.map((m) => `${m.tx}@${m.logIndex}`));
  for (const m of expected.mints) {
    const row = mints.get(`${m.tx}@${m.logIndex}`) ?? {};
    const p = pairOf.get(m.pair) as PairState;
    const name = `Mint ${short(m.tx)}@${m.logIndex}`;
    checks.equal(`${name} pair, transaction, timestamp, sender, to`, [idOf(row.pair), idOf(row.transaction), row.timestamp, row.sender, row.to], [m.pair, m.tx, String(m.timestamp), m.sender, m.to]);
    checks.decimal(`${name} amount0 = the event's amount0`, row.amount0, fromRaw(m.amount0, decimalsOf(p.token0)));
    checks.decimal(`${name} amount1 = the event's amount1`, row.amount1, fromRaw(m.amount1, decimalsOf(p.token1)));
    checks.decimal(`${name} liquidity = the LP tokens minted`, row.liquidity, fromRaw(m.liquidity, 18));
  }
  const burns = await events("Burn");
  checks.sameSet("Burn entities = Burn events (transaction, log index)", burns.keys(), expected.burns.map((b) => `${b.tx}@${b.logIndex}`));
  for (const b of expected.burns) {
    const row = burns.get(`${b.tx}@${b.logIndex}`) ?? {};
    const p = pairOf.get(b.pair) as PairState;
    const name = `Burn ${short(b.tx)}@${b.logIndex}`;
    checks.equal(`${name} pair, transaction, timestamp`, [idOf(row.pair), idOf(row.transaction), row.timestamp], [b.pair, b.tx, String(b.timestamp)]);
    checks.decimal(`${name} amount0 = the event's amount0`, row.amount0, fromRaw(b.amount0, decimalsOf(p.token0)));
    checks.decimal(`${name} amount1 = the event's amount1`, row.amount1, fromRaw(b.amount1, decimalsOf(p.token1)));
    checks.decimal(`${name} liquidity = the LP tokens burnt`, row.liquidity, fromRaw(b.liquidity, 18));
  }
  const swaps = await events("Swap");
  checks.sameSet("Swap entities = Swap events (transaction, log index)", swaps.keys(), expected.swaps.map((s) => `${s.tx}@${s.logIndex}`));
  for (const s of expected.swaps) {
    const row = swaps.get(`${s.tx}@${s.logIndex}`) ?? {};
    const p = pairOf.get(s.pair) as PairState;
    const name = `Swap ${short(s.tx)}@${s.logIndex}`;
    checks.equal(`${name} pair, transaction, timestamp, sender, to, from`, [idOf(row.pair), idOf(row.transaction), row.timestamp, row.sender, row.to, row.from], [s.pair, s.tx, String(s.timestamp), s.sender, s.to, s.from]);
    for (const [field, raw, token] of [["amount0In", s.amount0In, p.token0], ["amount1In", s.amount1In, p.token1], ["amount0Out", s.amount0Out, p.token0], ["amount1Out", s.amount1Out, p.token1]] as const) {
      checks.decimal(`${name} ${field} = the event's ${field}`, row[field], fromRaw(raw, decimalsOf(token)));
    }
  }

  const transactions = byId(await ctx.entities("Transaction"));
  checks.sameSet("Transaction ids = transactions with an LP-token Transfer or a Swap", transactions.keys(), expected.transactions.keys());
  checks.equal("Transaction blockNumber, timestamp = their blocks'", [...expected.transactions.keys()].map((tx) => [transactions.get(tx)?.blockNumber, transactions.get(tx)?.timestamp]), [...expected.transactions.values()].map((t) => [String(t.block), String(t.timestamp)]));
  checks.sameSet("User ids = senders and receivers of LP tokens", (await ctx.entities("User")).map((u) => String(u.id)), expected.users);

  // Day and hour data.
  const pairDays = byId(await ctx.entities("PairDayData"));
  checks.sameSet("PairDayData ids = (pair, day) of every Mint, Burn and Swap", pairDays.keys(), expected.pairDays.keys());
  for (const [id, t] of expected.pairDays) {
    const row = pairDays.get(id) ?? {};
    const p = pairOf.get(t.pair) as PairState;
    checks.equal(`PairDayData ${short(id)}…${id.slice(-6)} date, pairAddress, dailyTxns`, [row.date, row.pairAddress, row.dailyTxns], [t.date, t.pair, String(t.txns)]);
    checks.decimal(`PairDayData ${short(id)}…${id.slice(-6)} dailyVolumeToken0`, row.dailyVolumeToken0, fromRaw(t.volume0, decimalsOf(p.token0)));
    checks.decimal(`PairDayData ${short(id)}…${id.slice(-6)} dailyVolumeToken1`, row.dailyVolumeToken1, fromRaw(t.volume1, decimalsOf(p.token1)));
  }
  const pairHours = byId(await ctx.entities("PairHourData"));
  checks.sameSet("PairHourData ids = (pair, hour) of every Mint, Burn and Swap", pairHours.keys(), expected.pairHours.keys());
  for (const [id, t] of expected.pairHours) {
    const row = pairHours.get(id) ?? {};
    const p = pairOf.get(t.pair) as PairState;
    checks.equal(`PairHourData ${short(id)}…${id.slice(-6)} hourStartUnix, pair, hourlyTxns`, [row.hourStartUnix, idOf(row.pair), row.hourlyTxns], [t.hourStart, t.pair, String(t.txns)]);
    checks.decimal(`PairHourData ${short(id)}…${id.slice(-6)} hourlyVolumeToken0`, row.hourlyVolumeToken0, fromRaw(t.volume0, decimalsOf(p.token0)));
    checks.decimal(`PairHourData ${short(id)}…${id.slice(-6)} hourlyVolumeToken1`, row.hourlyVolumeToken1, fromRaw(t.volume1, decimalsOf(p.token1)));
  }
  const tokenDays = byId(await ctx.entities("TokenDayData"));
  checks.sameSet("TokenDayData ids = (token, day) of every Mint, Burn and Swap", tokenDays.keys(), expected.tokenDays.keys());
  for (const [id, t] of expected.tokenDays) {
    const row = tokenDays.get(id) ?? {};
    checks.equal(`TokenDayData ${short(id)}…${id.slice(-6)} date, token, dailyTxns`, [row.date, idOf(row.token), row.dailyTxns], [t.date, t.token, String(t.txns)]);
    checks.decimal(`TokenDayData ${short(id)}…${id.slice(-6)} dailyVolumeToken`, row.dailyVolumeToken, fromRaw(t.volume0, decimalsOf(t.token)));
  }
  const days = byId(await ctx.entities("UniswapDayData"));
  checks.sameSet("UniswapDayData ids = days with a Mint, Burn or Swap", days.keys(), expected.days.keys());
  for (const [id, t] of expected.days) checks.equal(`UniswapDayData ${id} date, txCount = events so far`, [days.get(id)?.date, days.get(id)?.txCount], [t.date, String(t.txCount)]);

  // Time travel: the same truths at past blocks.
  for (const then of past) {
    const at = then.head;
    const before = deriveExpectations(then);
    const pairsThen = byId(await ctx.entities("Pair", at));
    checks.sameSet(`@${at}: Pair ids = allPairs() then`, pairsThen.keys(), then.pairs.map((p) => p.address));
    for (const p of then.pairs) {
      const row = pairsThen.get(p.address) ?? {};
      checks.decimal(`@${at}: Pair ${short(p.address)} reserve0 = getReserves() then`, row.reserve0, fromRaw(p.reserve0, decimalsOf(p.token0)));
      checks.decimal(`@${at}: Pair ${short(p.address)} reserve1 = getReserves() then`, row.reserve1, fromRaw(p.reserve1, decimalsOf(p.token1)));
    }
    for (const [type, count] of [["Mint", before.mints.length], ["Burn", before.burns.length], ["Swap", before.swaps.length]] as const) {
      checks.equal(`@${at}: ${type} entities = ${type} events up to then`, (await ctx.entities(type, at)).length, count);
    }
  }
}

/** A pair's price of one token in the other, as a fraction of raw reserves scaled by the decimals. */
function scaledRatio(p: PairState, decimalsOf: (t: string) => number, which: "token0" | "token1"): [bigint, bigint] {
  const [num, den, numToken, denToken] = which === "token0" ? [p.reserve0, p.reserve1, p.token0, p.token1] : [p.reserve1, p.reserve0, p.token1, p.token0];
  return [num * 10n ** BigInt(decimalsOf(denToken)), den * 10n ** BigInt(decimalsOf(numToken))];
}
