// An engine's Nouns Builder entities against the chain (chainState.ts): each DAO's addresses (from
// DAODeployed), names and metadata (eth_call), supply, owners and counts; every token's owner, mint time
// and the name and image its tokenURI held at the mint; every auction and bid against the Auction's
// events and its current auction; the auction settings; every proposal against Governor.getProposal()
// and state(), the queue's eta plus the treasury's grace period, and every vote against VoteCast.
import { keccak256, toUtf8Bytes } from "ethers";
import type { CheckContext } from "../types.js";
import { readDaoState, type DaoState } from "./chainState.js";
import type { NounsDeployment } from "./scenario.js";

type Row = Record<string, unknown>;

const idOf = (value: unknown) => (value && typeof value === "object" ? (value as { id?: unknown }).id : (value ?? null));
const byId = (rows: Row[]) => new Map(rows.map((r) => [String(r.id), r]));
const SUPPORT = ["AGAINST", "FOR", "ABSTAIN"];
const QUEUED = 5;

export async function checkNounsEntities(d: NounsDeployment, ctx: CheckContext): Promise<void> {
  const states = await Promise.all(d.daos.map((dao) => readDaoState(ctx.chainUrl, dao)));
  const daos = byId(await ctx.entities("DAO"));
  ctx.checks.sameSet("DAO ids = the tokens of Manager's DAODeployed events", daos.keys(), d.daos.map((dao) => dao.token));
  const all = {
    // A burned token keeps `ownerInfo` pointing at the zero address's holder, which never exists: graph-node
    // fails any read of that field for it. The relation is read from the holders' side (daoTokens).
    tokens: byId(await ctx.entities("Token", undefined, ["ownerInfo"])),
    owners: byId(await ctx.entities("DAOTokenOwner")),
    auctions: byId(await ctx.entities("Auction")),
    bids: byId(await ctx.entities("AuctionBid")),
    configs: byId(await ctx.entities("AuctionConfig")),
    proposals: byId(await ctx.entities("Proposal")),
    votes: byId(await ctx.entities("ProposalVote")),
  };
  const expectedIds = { tokens: [] as string[], owners: [] as string[], auctions: [] as string[], bids: [] as string[], proposals: [] as string[], votes: [] as string[] };
  for (const state of states) {
    const ids = checkDao(ctx, state, daos.get(state.dao.token) ?? {}, all);
    for (const key of Object.keys(expectedIds) as (keyof typeof expectedIds)[]) expectedIds[key].push(...ids[key]);
  }
  ctx.checks.sameSet("Token ids = every minted token (Transfer from 0x0)", all.tokens.keys(), expectedIds.tokens);
  ctx.checks.sameSet("DAOTokenOwner ids = every holder with balanceOf > 0", all.owners.keys(), expectedIds.owners);
  ctx.checks.sameSet("Auction ids = every AuctionCreated", all.auctions.keys(), expectedIds.auctions);
  ctx.checks.sameSet("AuctionBid ids = every AuctionBid event", all.bids.keys(), expectedIds.bids);
  ctx.checks.sameSet("AuctionConfig ids = the DAOs' tokens", all.configs.keys(), d.daos.map((dao) => dao.token));
  ctx.checks.sameSet("Proposal ids = every ProposalCreated", all.proposals.keys(), expectedIds.proposals);
  ctx.checks.sameSet("ProposalVote ids = every VoteCast", all.votes.keys(), expectedIds.votes);

  // At past blocks: the auctions and proposals that existed then.
  for (const at of d.pastBlocks) {
    ctx.checks.sameSet(`@${at}: Auction ids = AuctionCreated up to it`, (await ctx.entities("Auction", at)).map((r) => String(r.id)), createdUpTo(states, at, "auction"));
    ctx.checks.sameSet(`@${at}: Proposal ids = ProposalCreated up to it`, (await ctx.entities("Proposal", at)).map((r) => String(r.id)), createdUpTo(states, at, "proposal"));
  }
}

type Entities = Record<"tokens" | "owners" | "auctions" | "bids" | "configs" | "proposals" | "votes", Map<string, Row>>;

function checkDao(ctx: CheckContext, s: DaoState, row: Row, all: Entities) {
  const { checks } = ctx;
  const t = s.dao.token;
  const name = `DAO ${s.symbol}`;
  checks.equal(`${name} addresses = DAODeployed`, [row.tokenAddress, row.metadataAddress, row.auctionAddress, row.treasuryAddress, row.governorAddress], [t, s.dao.metadata, s.dao.auction, s.dao.treasury, s.dao.governor]);
  checks.equal(`${name} name, symbol = Token name(), symbol()`, [row.name, row.symbol], [s.name, s.symbol]);
  checks.equal(`${name} description, contractImage, projectURI = the renderer's views`, [row.description, row.contractImage, row.projectURI], [s.description, s.contractImage, s.projectURI]);
  checks.equal(`${name} totalSupply = Token totalSupply()`, row.totalSupply, Number(s.totalSupply));
  checks.equal(`${name} ownerCount = holders with balanceOf > 0`, row.ownerCount, s.balances.size);
  checks.equal(`${name} proposalCount = ProposalCreated events`, row.proposalCount, s.proposals.length);
  checks.equal(`${name} totalAuctionSales = AuctionSettled amounts`, row.totalAuctionSales, s.sales.toString());
  checks.equal(`${name} currentAuction = auction() unless settled`, idOf(row.currentAuction), s.current.settled || s.auctions.length === 0 ? null : `${t}:${s.current.tokenId}`);
  const config = all.configs.get(t) ?? {};
  checks.equal(`${name} AuctionConfig = duration(), reservePrice(), timeBuffer(), minBidIncrement()`, [config.duration, config.reservePrice, config.timeBuffer, config.minimumBidIncrement], Object.values(s.config).map(String));

  for (const token of s.tokens) {
    const r = all.tokens.get(`${t}:${token.id}`) ?? {};
    const meta = decodeTokenUri(token.uri);
    checks.equal(`${name} token ${token.id} owner = its last Transfer`, r.owner, token.owner);
    checks.equal(`${name} token ${token.id} tokenId, mintedAt, dao`, [r.tokenId, r.mintedAt, idOf(r.dao)], [String(token.id), String(token.mintedAt), t]);
    checks.equal(`${name} token ${token.id} name, image, content = tokenURI() at its mint`, [r.name, r.image, r.content], [meta.name ?? `${s.name} #${token.id}`, meta.image ?? null, meta.content ?? null]);
  }
  for (const [holder, balance] of s.balances) {
    const r = all.owners.get(`${t}:${holder}`) ?? {};
    checks.equal(`${name} holder ${holder.slice(0, 10)} daoTokenCount = balanceOf()`, [r.owner, r.daoTokenCount, idOf(r.dao)], [holder, Number(balance), t]);
    const held = s.tokens.filter((x) => x.owner === holder).map((x) => `${t}:${x.id}`);
    checks.sameSet(`${name} holder ${holder.slice(0, 10)} daoTokens (tokens whose ownerInfo it is) = its tokens by ownerOf`, ((r.daoTokens ?? []) as Row[]).map((x) => String(x.id)), held);
  }
  for (const a of s.auctions) {
    const r = all.auctions.get(`${t}:${a.tokenId}`) ?? {};
    const last = a.bids.at(-1);
    checks.equal(`${name} auction ${a.tokenId} start, end (last bid's), extended`, [r.startTime, r.endTime, r.extended], [String(a.startTime), String(last?.endTime ?? a.endTime), last?.extended ?? false]);
    checks.equal(`${name} auction ${a.tokenId} bids, highest, winning, first bid time, settled`, [r.bidCount, idOf(r.highestBid), idOf(r.winningBid), r.firstBidTime, r.settled], [a.bids.length, last?.id ?? null, a.settled ? (last?.id ?? null) : null, a.bids[0] ? String(a.bids[0].time) : null, a.settled]);
    for (const b of a.bids) {
      const bid = all.bids.get(b.id) ?? {};
      checks.equal(`${name} bid ${b.id.slice(0, 10)}… amount, bidder, auction, time`, [bid.amount, bid.bidder, idOf(bid.auction), bid.bidTime], [b.amount.toString(), b.bidder, `${t}:${a.tokenId}`, String(b.time)]);
    }
  }
  for (const p of s.proposals) {
    const r = all.proposals.get(p.id) ?? {};
    const [, targets, values, calldatas, description, descriptionHash] = p.created.args as unknown as [string, string[], bigint[], string[], string, string];
    const [title, body] = description.split("&&");
    const v = p.view;
    const label = `${name} proposal ${p.number}`;
    checks.equal(`${label} number, dao, targets, values, calldatas`, [r.proposalNumber, idOf(r.dao), r.targets, r.values, r.calldatas], [p.number, t, targets.map((x) => x.toLowerCase()), values.map(String), calldatas.length ? calldatas.join(":") : null]);
    checks.equal(`${label} title, description, descriptionHash = keccak256(description)`, [r.title, r.description, r.descriptionHash], [title || null, body || null, keccak256(toUtf8Bytes(description))]);
    checks.equal(`${label} descriptionHash = ProposalCreated's`, r.descriptionHash, descriptionHash);
    checks.equal(`${label} proposer, timeCreated, voteStart, voteEnd, threshold, quorum = getProposal()`, [r.proposer, r.timeCreated, r.voteStart, r.voteEnd, r.proposalThreshold, r.quorumVotes], [String(v.proposer).toLowerCase(), ...["timeCreated", "voteStart", "voteEnd", "proposalThreshold", "quorumVotes"].map((k) => String(v[k]))]);
    checks.equal(`${label} for, against, abstain votes = getProposal()`, [r.forVotes, r.againstVotes, r.abstainVotes], ["forVotes", "againstVotes", "abstainVotes"].map((k) => Number(v[k])));
    checks.equal(`${label} executed, canceled, vetoed = getProposal(); queued = state() is Queued`, [r.executed, r.canceled, r.vetoed, r.queued], [v.executed, v.canceled, v.vetoed, p.state === QUEUED]);
    checks.equal(`${label} executableFrom = ProposalQueued's eta, expiresAt = eta + gracePeriod()`, [r.executableFrom, r.expiresAt], p.eta === null ? [null, null] : [String(p.eta), String(p.eta + s.gracePeriod)]);
    checks.equal(`${label} executionTransactionHash, snapshotBlockNumber, transactionHash`, [r.executionTransactionHash ?? null, r.snapshotBlockNumber, r.transactionHash], [p.executedIn, String(p.created.blockNumber), p.created.transactionHash]);
    checks.equal(`${label} voteCount = its VoteCast events`, r.voteCount, p.votes.length);
    for (const vote of p.votes) {
      const [voter, , support, weight, reason] = vote.args as unknown as [string, string, bigint, bigint, string];
      const row = all.votes.get(`${vote.transactionHash}:${vote.index}`) ?? {};
      checks.equal(`${label} vote by ${voter.slice(0, 10)} = VoteCast`, [row.voter, row.support, row.weight, row.reason, idOf(row.proposal)], [voter.toLowerCase(), SUPPORT[Number(support)], Number(weight), reason || null, p.id]);
    }
  }
  return {
    tokens: s.tokens.map((x) => `${t}:${x.id}`),
    owners: [...s.balances.keys()].map((h) => `${t}:${h}`),
    auctions: s.auctions.map((a) => `${t}:${a.tokenId}`),
    bids: s.auctions.flatMap((a) => a.bids.map((b) => b.id)),
    proposals: s.proposals.map((p) => p.id),
    votes: s.proposals.flatMap((p) => p.votes.map((v) => `${v.transactionHash}:${v.index}`)),
  };
}

/** The JSON of a `data:application/json;base64,` tokenURI: name, image and animation_url. */
function decodeTokenUri(uri: string | null): { name?: string | undefined; image?: string | undefined; content?: string | undefined } {
  const encoded = uri?.split(",")[1];
  if (!encoded) return {};
  try {
    const json = JSON.parse(Buffer.from(encoded, "base64").toString("utf8")) as Record<string, unknown>;
    const text = (k: string) => (typeof json[k] === "string" ? json[k] : undefined);
    return { name: text("name"), image: text("image"), content: text("animation_url") };
  } catch {
    return {};
  }
}

function createdUpTo(states: DaoState[], block: number, kind: "auction" | "proposal"): string[] {
  return states.flatMap((s) =>
    kind === "proposal"
      ? s.proposals.filter((p) => p.created.blockNumber <= block).map((p) => p.id)
      : s.auctions.filter((a) => a.createdBlock <= block).map((a) => `${s.dao.token}:${a.tokenId}`),
  );
}
