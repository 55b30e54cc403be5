// What the chain says about one Nouns Builder DAO: its contracts' views (eth_call at the head, and
// tokenURI at each token's mint block, when the subgraph read it) and its events, which are the only
// record of past auctions, bids, votes and proposal steps.
import { JsonRpcProvider, type Contract, type EventLog, type Log } from "ethers";
import { nounsContract } from "./protocol.js";
import type { NounsDao } from "./scenario.js";

const ZERO = "0x0000000000000000000000000000000000000000";

export interface TokenState {
  id: bigint;
  owner: string;
  mintBlock: number;
  mintedAt: number;
  /** tokenURI at the mint block, or null where it reverted. */
  uri: string | null;
}

export interface BidState {
  id: string;
  tokenId: bigint;
  bidder: string;
  amount: bigint;
  extended: boolean;
  endTime: bigint;
  time: number;
}

export interface AuctionState {
  tokenId: bigint;
  startTime: bigint;
  endTime: bigint;
  bids: BidState[];
  settled: boolean;
  createdBlock: number;
}

export interface ProposalState {
  id: string;
  number: number;
  created: EventLog;
  /** Governor.getProposal(). */
  view: Record<string, unknown>;
  state: number;
  eta: bigint | null;
  executedIn: string | null;
  votes: EventLog[];
}

export interface DaoState {
  dao: NounsDao;
  name: string;
  symbol: string;
  totalSupply: bigint;
  description: string;
  contractImage: string;
  projectURI: string;
  config: { duration: bigint; reservePrice: bigint; timeBuffer: bigint; minBidIncrement: bigint };
  current: { tokenId: bigint; settled: boolean };
  gracePeriod: bigint;
  tokens: TokenState[];
  balances: Map<string, bigint>;
  auctions: AuctionState[];
  sales: bigint;
  proposals: ProposalState[];
}

export async function readDaoState(chainUrl: string, dao: NounsDao): Promise<DaoState> {
  const provider = new JsonRpcProvider(chainUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const signer = await provider.getSigner(0);
    const [token, metadata, auction, treasury, governor] = await Promise.all([
      nounsContract("Token", dao.token, signer),
      nounsContract("MetadataRenderer", dao.metadata, signer),
      nounsContract("Auction", dao.auction, signer),
      nounsContract("Treasury", dao.treasury, signer),
      nounsContract("Governor", dao.governor, signer),
    ]);
    const call = async <T>(contract: Contract, fn: string, ...args: unknown[]) => (await contract.getFunction(fn).staticCall(...args)) as T;
    const events = async (contract: Contract, name: string) => (await contract.queryFilter(name, 0, "latest")).filter((e): e is EventLog => "args" in e);
    const timeOf = async (log: Log) => (await provider.getBlock(log.blockNumber))?.timestamp ?? 0;

    const transfers = await events(token, "Transfer");
    const tokens: TokenState[] = [];
    for (const mint of transfers.filter((t) => t.args[0] === ZERO)) {
      const id = BigInt(mint.args[2] as bigint);
      const last = transfers.filter((t) => t.args[2] === id).at(-1) ?? mint;
      const uri = await (token.getFunction("tokenURI").staticCall(id, { blockTag: mint.blockNumber }) as Promise<string>).catch(() => null);
      tokens.push({ id, owner: String(last.args[1]).toLowerCase(), mintBlock: mint.blockNumber, mintedAt: await timeOf(mint), uri });
    }
    const balances = new Map<string, bigint>();
    for (const t of tokens) if (t.owner !== ZERO) balances.set(t.owner, await call<bigint>(token, "balanceOf", t.owner));

    const bids: BidState[] = [];
    for (const e of await events(auction, "AuctionBid")) {
      const [tokenId, bidder, amount, extended, endTime] = e.args as unknown as [bigint, string, bigint, boolean, bigint];
      bids.push({ id: `${e.transactionHash}:${e.index}`, tokenId, bidder: bidder.toLowerCase(), amount, extended, endTime, time: await timeOf(e) });
    }
    const settledEvents = await events(auction, "AuctionSettled");
    const auctions = (await events(auction, "AuctionCreated")).map((e) => {
      const [tokenId, startTime, endTime] = e.args as unknown as [bigint, bigint, bigint];
      return { tokenId, startTime, endTime, bids: bids.filter((b) => b.tokenId === tokenId), settled: settledEvents.some((s) => s.args[0] === tokenId), createdBlock: e.blockNumber };
    });

    const queued = await events(governor, "ProposalQueued");
    const executed = await events(governor, "ProposalExecuted");
    const votes = await events(governor, "VoteCast");
    const proposals: ProposalState[] = [];
    for (const [i, created] of (await events(governor, "ProposalCreated")).entries()) {
      const id = String(created.args[0]);
      const view = (await call<{ toObject(): Record<string, unknown> }>(governor, "getProposal", id)).toObject();
      const eta = queued.find((q) => q.args[0] === id)?.args[1] as bigint | undefined;
      proposals.push({ id, number: i + 1, created, view, state: Number(await call<bigint>(governor, "state", id)), eta: eta ?? null, executedIn: executed.find((x) => x.args[0] === id)?.transactionHash ?? null, votes: votes.filter((v) => v.args[1] === id) });
    }

    const current = await call<{ tokenId: bigint; settled: boolean }>(auction, "auction");
    return {
      dao,
      name: await call(token, "name"),
      symbol: await call(token, "symbol"),
      totalSupply: await call(token, "totalSupply"),
      description: await call(metadata, "description"),
      contractImage: await call(metadata, "contractImage"),
      projectURI: await call(metadata, "projectURI"),
      config: {
        duration: await call(auction, "duration"),
        reservePrice: await call(auction, "reservePrice"),
        timeBuffer: await call(auction, "timeBuffer"),
        minBidIncrement: await call(auction, "minBidIncrement"),
      },
      current: { tokenId: current.tokenId, settled: current.settled },
      gracePeriod: await call(treasury, "gracePeriod"),
      tokens,
      balances,
      auctions,
      sales: settledEvents.reduce((sum, s) => sum + BigInt(s.args[2] as bigint), 0n),
      proposals,
    };
  } finally {
    provider.destroy();
  }
}
