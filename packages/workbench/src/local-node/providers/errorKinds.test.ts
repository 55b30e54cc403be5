import { describe, expect, it } from "vitest";
import { ConnectionError, HttpRequestError, MissingBatchResponseError, ResponseTooLargeError, TimeoutError, rpcResponseErrorFrom } from "../../json-rpc/index.js";
import { classifyRpcError, retryAfterMs, suggestedRange, type ErrorKind } from "./errorKinds.js";

/** An error answer as a provider sends it: the HTTP status, the JSON-RPC error object, a Retry-After. */
type Fixture = { who: string; status: number; error: { code: number; message: string; data?: unknown }; retryAfter?: string };

function asClientError(f: Fixture) {
  const err = rpcResponseErrorFrom(f.error);
  if (f.status < 200 || f.status >= 300) err.httpStatus = f.status;
  err.retryAfter = f.retryAfter ?? null;
  return err;
}

// Shapes of the answers each provider or client documents or is reported to send (messages shortened
// where the rest is advice); the number range in a message is kept when it is the provider's hint.
const fixtures: Record<ErrorKind, Fixture[]> = {
  range: [
    { who: "Alchemy (paid: size cap with a hint)", status: 200, error: { code: -32602, message: "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [0x0, 0xd043b8]" } },
    { who: "Alchemy (free tier)", status: 400, error: { code: -32600, message: "You can make eth_getLogs requests with up to a 500 block range. Based on your parameters, this block range should work: [0x123c9b2, 0x123cba5]" } },
    { who: "Infura (result cap, -32005)", status: 200, error: { code: -32005, message: "query returned more than 10000 results. Try with this block range [0xBDE5F8, 0x102DBCC].", data: { from: "0xBDE5F8", limit: 10000, to: "0x102DBCC" } } },
    { who: "Infura (range cap)", status: 200, error: { code: -32602, message: "range 1000000 exceeds limit of 10000" } },
    { who: "QuickNode (413 with a JSON-RPC body)", status: 413, error: { code: -32614, message: "eth_getLogs is limited to a 10,000 range" } },
    { who: "QuickNode (documented wording)", status: 413, error: { code: -32602, message: "eth_getLogs and eth_newFilter are limited to a 10,000 blocks range" } },
    { who: "Ankr / Frontier chains", status: 200, error: { code: -32600, message: "block range is too wide (maximum 1024)" } },
    { who: "Tenderly (reason in data)", status: 200, error: { code: -32602, message: "invalid params", data: { error_id: "4ed94073", payload: "range 9009594 is bigger than range limit 2000" } } },
    { who: "op-geth fork", status: 200, error: { code: -32000, message: "block range is larger than max block range, block range = 5120, max block range = 5000" } },
    { who: "cdk-erigon", status: 200, error: { code: -32005, message: "block range too large, max range: 1000" } },
    { who: "erigon (range)", status: 200, error: { code: -32602, message: "query block range exceeds server limit, narrow your filter: 1000" } },
    { who: "erigon (results)", status: 200, error: { code: -32000, message: "query returns too many logs, narrow your filter: 20000" } },
    { who: "reth (range)", status: 200, error: { code: -32602, message: "query exceeds max block range 100000" } },
    { who: "reth (results, with a hint)", status: 200, error: { code: -32602, message: "query exceeds max results 20000, retry with the range 25766988-25775072" } },
    { who: "besu", status: 200, error: { code: -32005, message: "Requested range exceeds maximum RPC range limit" } },
    { who: "geth / Infura (query time cap)", status: 200, error: { code: -32005, message: "query timeout exceeded" } },
  ],
  rate: [
    { who: "Alchemy (429, code 429)", status: 429, error: { code: 429, message: "Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message." } },
    { who: "Infura (429, -32005)", status: 429, error: { code: -32005, message: "daily request count exceeded, request rate limited", data: { see: "https://infura.io/dashboard" } } },
    { who: "Infura (per second)", status: 429, error: { code: -32005, message: "project ID request rate exceeded" }, retryAfter: "1" },
    { who: "QuickNode (429, -32007)", status: 429, error: { code: -32007, message: "100/second request limit reached - reduce calls per second or upgrade your account at quicknode.com" } },
    { who: "Ankr (retry in)", status: 429, error: { code: -32090, message: "Too many requests, reason: call rate limit exhausted, retry in 10s" } },
    { who: "BNB public RPC (-32005 limit exceeded)", status: 200, error: { code: -32005, message: "limit exceeded" } },
    { who: "EIP-1474 limit exceeded, other words", status: 200, error: { code: -32005, message: "request exceeds defined limit" } },
  ],
  behind: [
    { who: "geth (block beyond the node's head)", status: 200, error: { code: -32000, message: "header not found" } },
    { who: "geth / execution-apis (toBlock past head)", status: 200, error: { code: -32602, message: "block range extends beyond current head block" } },
    { who: "Alchemy (block of a filter not found)", status: 200, error: { code: -32000, message: "One of the blocks specified in filter (fromBlock, toBlock or blockHash) cannot be found." } },
    { who: "nethermind", status: 200, error: { code: -32001, message: "8633830 could not be found" } },
    { who: "besu", status: 200, error: { code: -39001, message: "Block not found" } },
    { who: "erigon / reth (eth_call at a block not yet there)", status: 200, error: { code: -32000, message: "unknown block" } },
  ],
  transient: [
    { who: "load balancer 502 with a JSON-RPC body", status: 502, error: { code: -32000, message: "bad gateway" } },
    { who: "an internal error", status: 200, error: { code: -32603, message: "Internal error" } },
  ],
  refused: [
    { who: "Alchemy (monthly quota)", status: 403, error: { code: -32600, message: "Monthly capacity limit exceeded. Visit https://dashboard.alchemyapi.io/settings/billing to upgrade your scaling policy for continued service." } },
    { who: "Infura (key not allowed)", status: 401, error: { code: -32002, message: "rejected due to project ID settings" } },
  ],
  fatal: [
    { who: "geth (a revert)", status: 200, error: { code: 3, message: "execution reverted", data: "0x08c379a0" } },
    { who: "geth (pruned state: needs an archive node)", status: 200, error: { code: -32000, message: "missing trie node 0c7d6e (path ) state 0x0c7d6e is not available" } },
    { who: "method not found", status: 200, error: { code: -32601, message: "the method trace_filter does not exist/is not available" } },
    { who: "bad params", status: 200, error: { code: -32602, message: "invalid argument 0: hex string without 0x prefix" } },
  ],
};

describe("classifyRpcError: providers' documented error answers", () => {
  for (const [kind, list] of Object.entries(fixtures) as [ErrorKind, Fixture[]][]) {
    for (const f of list) {
      it(`${f.who} (${f.status}, ${f.error.code}) is ${kind}`, () => {
        expect(classifyRpcError(asClientError(f)).kind).toBe(kind);
      });
    }
  }

  it("reads the providers' hinted ranges and waits", () => {
    expect(classifyRpcError(asClientError(fixtures.range[0]!)).suggestedRange).toEqual({ from: 0, to: 0xd043b8 });
    expect(classifyRpcError(asClientError(fixtures.range[13]!)).suggestedRange).toEqual({ from: 25766988, to: 25775072 });
    expect(classifyRpcError(asClientError(fixtures.rate[2]!)).retryAfterMs).toBe(1000);
    expect(classifyRpcError(asClientError(fixtures.rate[4]!)).retryAfterMs).toBe(10_000);
    // A rate limit never carries a range: it must not shrink one.
    for (const f of fixtures.rate) expect(classifyRpcError(asClientError(f)).suggestedRange).toBeNull();
  });
});

describe("classifyRpcError: transport failures", () => {
  const url = "http://127.0.0.1:1/***";
  it("429 and 503 without a JSON-RPC body: a rate limit with its Retry-After, and a transient failure", () => {
    expect(classifyRpcError(new HttpRequestError({ status: 429, url, body: "Too Many Requests", retryAfter: "2" }))).toEqual({ kind: "rate", retryAfterMs: 2000, suggestedRange: null });
    expect(classifyRpcError(new HttpRequestError({ status: 429, url, body: "" })).retryAfterMs).toBeNull();
    expect(classifyRpcError(new HttpRequestError({ status: 503, url, body: "<html>Service Unavailable</html>" })).kind).toBe("transient");
  });
  it("a truncated or empty 200 body, a reset, a timeout, a batch element left out", () => {
    expect(classifyRpcError(new HttpRequestError({ status: 200, url, body: '{"jsonrpc":"2.0","id":1,"res' })).kind).toBe("transient");
    expect(classifyRpcError(new HttpRequestError({ status: 200, url, body: "" })).kind).toBe("transient");
    expect(classifyRpcError(new ConnectionError({ url })).kind).toBe("transient");
    expect(classifyRpcError(new TimeoutError({ url, timeoutMs: 10 })).kind).toBe("transient");
    expect(classifyRpcError(new MissingBatchResponseError(7)).kind).toBe("transient");
  });
  it("an answer past the client's size cap asks for fewer blocks", () => {
    expect(classifyRpcError(new ResponseTooLargeError({ url, limitBytes: 10 })).kind).toBe("range");
  });
  it("anything that is not a client error is the caller's", () => {
    expect(classifyRpcError(new Error("boom")).kind).toBe("fatal");
  });
});

describe("retryAfterMs and suggestedRange", () => {
  it("reads seconds, an HTTP date and phrases", () => {
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(retryAfterMs(null, "try again in 250 ms")).toBe(250);
    expect(retryAfterMs(null, "no wait here")).toBeNull();
  });
  it("reads hex and decimal ranges", () => {
    expect(suggestedRange("[0x10, 0x2f]")).toEqual({ from: 16, to: 47 });
    expect(suggestedRange("nothing")).toBeNull();
  });
});
