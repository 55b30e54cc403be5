// Which clients get the dashboard at `/`: browsers (their own Accept headers), and no one else.
import { describe, expect, it } from "vitest";
import { prefersHtml } from "./acceptsHtml.js";
import { placeOf } from "./errorLocation.js";

describe("the dashboard's Accept rule", () => {
  it("serves the page to browsers' navigations", () => {
    // Chromium's and Firefox's navigation Accept headers.
    expect(prefersHtml("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7")).toBe(true);
    expect(prefersHtml("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")).toBe(true);
  });

  it("leaves graph-node's JSON to every other client", () => {
    for (const accept of [undefined, "", "*/*", "application/json", "application/graphql-response+json, application/json", "application/json, text/html;q=0.5", "text/html;q=0", "text/plain"]) {
      expect(prefersHtml(accept), String(accept)).toBe(false);
    }
  });
});

describe("an error's place, read from graph-node's message", () => {
  it("takes the handler, the transaction and an abort's file, line and column", () => {
    const message =
      "transaction 18c9db49889cfb2e91525574059cfc743bb7ad4ba921f1704eac2f7b0b132f66: Mapping aborted at src/mapping.as.ts, line 8, column 5, with message: unlucky approval value 13 in handler `ApprovalHandler` at block #607 (ad040efb)";
    expect(placeOf(message)).toEqual({ handler: "ApprovalHandler", transaction: "0x18c9db49889cfb2e91525574059cfc743bb7ad4ba921f1704eac2f7b0b132f66", location: "src/mapping.as.ts:8:5" });
    expect(placeOf("wasm trap: unreachable")).toEqual({ handler: null, transaction: null, location: null });
  });
});
