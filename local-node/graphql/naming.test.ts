import { describe, expect, it } from "vitest";
import { queryFieldNames } from "./naming.js";

describe("queryFieldNames", () => {
  it("follows graph-node's camelCase and pluralisation", () => {
    expect(queryFieldNames("ApprovalQuery")).toEqual({ singular: "approvalQuery", plural: "approvalQueries" });
    expect(queryFieldNames("Stats")).toEqual({ singular: "stats", plural: "stats_collection" });
    expect(queryFieldNames("Account")).toEqual({ singular: "account", plural: "accounts" });
    expect(queryFieldNames("Transfer")).toEqual({ singular: "transfer", plural: "transfers" });
    expect(queryFieldNames("Person")).toEqual({ singular: "person", plural: "people" });
    expect(queryFieldNames("TokenBalance")).toEqual({ singular: "tokenBalance", plural: "tokenBalances" });
    expect(queryFieldNames("Box")).toEqual({ singular: "box", plural: "boxes" });
  });
});
