import { describe, expect, it } from "vitest";
import { createChainSet, parseRpcEntry } from "./networks.js";

describe("--ethereum-rpc entries", () => {
  it("reads graph-node's <network>:[<capabilities>:]<url> and bare URLs", () => {
    expect(parseRpcEntry("http://127.0.0.1:8545")).toEqual({ network: null, url: "http://127.0.0.1:8545", features: ["archive", "traces"] });
    expect(parseRpcEntry("mainnet:http://127.0.0.1:8545")).toEqual({ network: "mainnet", url: "http://127.0.0.1:8545", features: ["archive", "traces"] });
    expect(parseRpcEntry("sepolia:archive,traces:https://127.0.0.1:8546/key")).toEqual({ network: "sepolia", url: "https://127.0.0.1:8546/key", features: ["archive", "traces"] });
    expect(() => parseRpcEntry("mainnet")).toThrow(/neither a URL nor <network>:<url>/);
    expect(() => parseRpcEntry("mainnet:archive:ftp://x")).toThrow(/expected <network>:\[<capabilities>:\]/);
  });

  it("gives each network its RPC, a bare URL serves the rest, and no RPC means null", () => {
    const named = createChainSet(["mainnet:http://127.0.0.1:1", "gnosis:http://127.0.0.1:2"]);
    expect(named.rpcFor("gnosis")?.displayUrl).toContain(":2");
    expect(named.rpcFor("localhost")).toBeNull();
    const mixed = createChainSet(["mainnet:http://127.0.0.1:1", "http://127.0.0.1:3"]);
    expect(mixed.rpcFor("localhost")?.displayUrl).toContain(":3");
    expect(mixed.rpcFor("mainnet")?.displayUrl).toContain(":1");
    expect(() => createChainSet(["http://127.0.0.1:1", "http://127.0.0.1:2"])).toThrow(/more than one URL without a network name/);
  });

  it("gives a network named twice two providers, labelled as graph-node labels them", () => {
    const set = createChainSet(["mainnet:http://127.0.0.1:1", "gnosis:http://127.0.0.1:2", "mainnet:traces:http://127.0.0.1:3/0123456789abcdef0123"]);
    const mainnet = set.providers().find((n) => n.network === "mainnet")!.providers;
    expect(mainnet.map((p) => p.label)).toEqual(["mainnet-rpc-0", "mainnet-rpc-2"]);
    // The key in the path is never shown.
    expect(JSON.stringify(set.describe())).not.toContain("0123456789abcdef0123");
  });
});
