import { describe, expect, it } from "vitest";
import { queryFieldNames } from "./naming.js";

describe("queryFieldNames", () => {
  it("follows graph-node's camelCase and pluralisation", () => {
    expect(queryFieldNames("ApprovalQuery")).toEqual({ singular: "approvalQuery", plural: "approvalQueries" });
    expect(queryFieldNames("Stats")).toEqual({ singular: "stats", plural: "stats_collection" });
    expect(queryFieldNames("Account")).toEqual({ singular: "account", plural: "accounts" });
    expect(queryFieldNames("Transfer")).toEqual({ singular: "transfer", plural: "transfers" });
    // Inflector's rules are case-sensitive over the whole name: "Person" is not "person".
    expect(queryFieldNames("Person")).toEqual({ singular: "person", plural: "persons" });
    expect(queryFieldNames("UniswapDayData")).toEqual({ singular: "uniswapDayData", plural: "uniswapDayDatas" });
    expect(queryFieldNames("PairHourData")).toEqual({ singular: "pairHourData", plural: "pairHourDatas" });
    expect(queryFieldNames("Bundle")).toEqual({ singular: "bundle", plural: "bundles" });
    expect(queryFieldNames("LiquidityPosition")).toEqual({ singular: "liquidityPosition", plural: "liquidityPositions" });
    expect(queryFieldNames("Factory")).toEqual({ singular: "factory", plural: "factories" });
    expect(queryFieldNames("Swap")).toEqual({ singular: "swap", plural: "swaps" });
    expect(queryFieldNames("TokenBalance")).toEqual({ singular: "tokenBalance", plural: "tokenBalances" });
    expect(queryFieldNames("Box")).toEqual({ singular: "box", plural: "boxes" });
  });

  it("lowercases a run of capitals as one word, as Inflector's camelCase does", () => {
    // Served by graph-node for ourzora/nouns-builder's schema: dao/daos, daotokenOwner/daotokenOwners.
    expect(queryFieldNames("DAO")).toEqual({ singular: "dao", plural: "daos" });
    expect(queryFieldNames("DAOTokenOwner")).toEqual({ singular: "daotokenOwner", plural: "daotokenOwners" });
    // A digit or a separator starts a new word.
    expect(queryFieldNames("ERC20Token")).toEqual({ singular: "erc20Token", plural: "erc20Tokens" });
    expect(queryFieldNames("Pool2a")).toEqual({ singular: "pool2A", plural: "pool2As" });
    expect(queryFieldNames("Token_holder")).toEqual({ singular: "tokenHolder", plural: "tokenHolders" });
  });
});
