// The Nouns Builder scenario: two DAOs from one Manager (each `DAODeployed` creates five data sources
// from templates with a context); one DAO's metadata set up and changed; its auctions run with outbid
// bids, a bid in the time buffer that extends the auction, a settled sale, one with no bid (the token is
// burned), and a token passed on; then governance: a proposal voted for, against and abstaining, queued
// and executed (it sets the auction's reserve price, an event of the Auction template), one canceled by
// its proposer and one vetoed.
import { AbiCoder, Contract, JsonRpcProvider, parseEther, type Signer, type TransactionReceipt } from "ethers";
import { deployNounsProtocol, nounsContract } from "./protocol.js";

export interface NounsDao {
  token: string;
  metadata: string;
  auction: string;
  treasury: string;
  governor: string;
}

export interface NounsDeployment {
  manager: string;
  startBlock: number;
  daos: NounsDao[];
  /** The proposals' ids, in the order they were made. */
  proposals: string[];
  pastBlocks: number[];
}

const DAY = 86_400;
const GAS = 5_000_000n;

export async function runNounsScenario(chainUrl: string, log: (line: string) => void = () => undefined): Promise<NounsDeployment> {
  const provider = new JsonRpcProvider(chainUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  try {
    const [deployer, founder, alice, bob, carol] = await Promise.all([0, 1, 2, 3, 4].map((i) => provider.getSigner(i)));
    if (!deployer || !founder || !alice || !bob || !carol) throw new Error("the chain has fewer than 5 unlocked accounts");
    const timeTravel = async (seconds: number) => {
      await provider.send("evm_increaseTime", [seconds]);
      await provider.send("evm_mine", []);
    };
    const { manager, managerBlock } = await deployNounsProtocol(deployer);
    log(`Nouns Builder Manager ${await manager.getAddress()} ready at block ${managerBlock}`);

    const daos = [await deployDao(manager, founder, "Test Builder DAO", "TBD"), await deployDao(manager, alice, "Second DAO", "SEC")];
    const [dao] = daos;
    if (!dao) throw new Error("no DAO was deployed");
    const as = async (signer: Signer, name: "Auction" | "Governor" | "MetadataRenderer" | "Token", address: string) => nounsContract(name, address, signer);

    // Metadata: the renderer needs properties before a token can be minted.
    const renderer = await as(founder, "MetadataRenderer", dao.metadata);
    await mined(renderer.getFunction("addProperties")(["Background", "Head"], [{ propertyId: 0, name: "Blue", isNewProperty: true }, { propertyId: 1, name: "Cap", isNewProperty: true }], { baseUri: "ipfs://builder-test/", extension: ".svg" }));
    await mined(renderer.getFunction("updateDescription")("A DAO on a test chain"));
    await mined(renderer.getFunction("updateContractImage")("ipfs://builder-test/contract.png"));
    await mined(renderer.getFunction("updateProjectURI")("https://example.org/dao"));

    // Auctions. The first unpause mints the founder's token and puts the next one up.
    await mined((await as(founder, "Auction", dao.auction)).getFunction("unpause")());
    const auctionAs = (signer: Signer) => as(signer, "Auction", dao.auction);
    const bid = async (signer: Signer, tokenId: number, eth: string) => mined((await auctionAs(signer)).getFunction("createBid")(tokenId, { value: parseEther(eth), gasLimit: GAS }));
    const settle = async () => mined((await auctionAs(carol)).getFunction("settleCurrentAndCreateNewAuction")({ gasLimit: GAS }));
    await bid(alice, 1, "0.01");
    await bid(bob, 1, "0.02");
    const { endTime } = (await (await auctionAs(carol)).getFunction("auction")()) as { endTime: bigint };
    const now = async () => (await provider.getBlock("latest"))?.timestamp ?? 0;
    await timeTravel(Number(endTime) - (await now()) - 120);
    await bid(carol, 1, "0.05"); // inside the 5-minute time buffer: extends the auction
    await timeTravel(DAY);
    await settle(); // token 1 to carol; token 2 up
    const afterFirstSale = await provider.getBlockNumber();
    await bid(alice, 2, "0.03");
    await timeTravel(DAY + 1);
    await settle(); // token 2 to alice; token 3 up
    await timeTravel(DAY + 1);
    await settle(); // no bid on token 3: burned; token 4 up
    await mined((await as(carol, "Token", dao.token)).getFunction("transferFrom")(await carol.getAddress(), await bob.getAddress(), 1));

    // Governance: founder (token 0), bob (token 1), alice (token 2).
    const governorAs = (signer: Signer) => as(signer, "Governor", dao.governor);
    const propose = async (signer: Signer, targets: string[], calldatas: string[], description: string) => {
      const receipt = await mined((await governorAs(signer)).getFunction("propose")(targets, targets.map(() => 0n), calldatas, description, { gasLimit: GAS }));
      const governor = await governorAs(signer);
      const created = receipt.logs.map((l) => governor.interface.parseLog(l)).find((e) => e?.name === "ProposalCreated");
      if (!created) throw new Error(`${description}: no ProposalCreated`);
      return { id: String(created.args.proposalId), descriptionHash: String(created.args.descriptionHash) };
    };
    const auctionInterface = (await auctionAs(bob)).interface;
    // The treasury owns the auction since its first unpause; settings change only while it is paused.
    const raise = ["pause", "setReservePrice", "unpause"].map((fn) => auctionInterface.encodeFunctionData(fn, fn === "setReservePrice" ? [parseEther("0.02")] : []));
    const raiseTargets = raise.map(() => dao.auction);
    const raiseProposal = await propose(bob, raiseTargets, raise, "Raise the reserve&&Ask 0.02 ETH at least");
    const cancelled = await propose(alice, [dao.auction], [auctionInterface.encodeFunctionData("setDuration", [2 * DAY])], "Longer auctions");
    const vetoed = await propose(bob, [dao.treasury], ["0x"], "&&Send nothing");
    const proposalsMade = await provider.getBlockNumber();
    await mined((await governorAs(alice)).getFunction("cancel")(cancelled.id));
    await mined((await governorAs(founder)).getFunction("veto")(vetoed.id));
    await timeTravel(3_600 + 1);
    await mined((await governorAs(bob)).getFunction("castVote")(raiseProposal.id, 1));
    await mined((await governorAs(alice)).getFunction("castVoteWithReason")(raiseProposal.id, 1, "cheaper is not better"));
    await mined((await governorAs(founder)).getFunction("castVote")(raiseProposal.id, 2));
    await timeTravel(DAY + 1);
    await mined((await governorAs(bob)).getFunction("queue")(raiseProposal.id));
    await timeTravel(2 * DAY + 1);
    await mined((await governorAs(bob)).getFunction("execute")(raiseTargets, raise.map(() => 0n), raise, raiseProposal.descriptionHash, await bob.getAddress(), { gasLimit: GAS }));
    log(`Nouns Builder scenario done at block ${await provider.getBlockNumber()}`);
    return {
      manager: await manager.getAddress(),
      startBlock: managerBlock,
      daos,
      proposals: [raiseProposal.id, cancelled.id, vetoed.id],
      pastBlocks: [afterFirstSale, proposalsMade],
    };
  } finally {
    provider.destroy();
  }
}

async function deployDao(manager: Contract, founder: Signer, name: string, symbol: string): Promise<NounsDao> {
  const founderAddress = await founder.getAddress();
  const latest = await founder.provider?.getBlock("latest");
  const initStrings = AbiCoder.defaultAbiCoder().encode(
    ["string", "string", "string", "string", "string", "string"],
    [name, symbol, `${name}, founded on a test chain`, "ipfs://builder-test/image.png", "https://example.org", "https://example.org/render"],
  );
  const receipt = await mined(
    (manager.connect(founder) as Contract).getFunction("deploy")(
      [{ wallet: founderAddress, ownershipPct: 10, vestExpiry: (latest?.timestamp ?? 0) + 365 * DAY }],
      { initStrings },
      { reservePrice: parseEther("0.01"), duration: DAY },
      { timelockDelay: 2 * DAY, votingDelay: 3_600, votingPeriod: DAY, proposalThresholdBps: 100, quorumThresholdBps: 1_000, vetoer: founderAddress },
      { gasLimit: 15_000_000n },
    ),
  );
  const deployed = receipt.logs.map((l) => manager.interface.parseLog(l)).find((e) => e?.name === "DAODeployed");
  if (!deployed) throw new Error(`${name}: Manager.deploy emitted no DAODeployed`);
  const [token, metadata, auction, treasury, governor] = (deployed.args as unknown as string[]).map((a) => a.toLowerCase());
  if (!token || !metadata || !auction || !treasury || !governor) throw new Error(`${name}: DAODeployed lacks an address`);
  return { token, metadata, auction, treasury, governor };
}

async function mined(sent: Promise<{ wait(): Promise<TransactionReceipt | null> }>): Promise<TransactionReceipt> {
  const receipt = await (await sent).wait();
  if (receipt?.status !== 1) throw new Error(`transaction ${receipt?.hash ?? "?"} failed`);
  return receipt;
}
