import { describe, expect, it } from "vitest";
import { errorWithoutSecrets, maskSecrets, maskUrl, secretsInUrl } from "./redact.js";

describe("maskUrl", () => {
  it("hides key path segments of node, deploy and IPFS addresses", () => {
    expect(maskUrl("https://nd-123-456-789.p2pify.com/0a1b2c3d4e5f67890a1b2c3d4e5f6789")).toBe("https://nd-123-456-789.p2pify.com/***");
    expect(maskUrl("https://mainnet.infura.io/v3/0a1b2c3d4e5f67890a1b2c3d4e5f6789")).toBe("https://mainnet.infura.io/v3/***");
    expect(maskUrl("https://graph.example.com/KEY123abc/deploy")).toBe("https://graph.example.com/***/deploy");
  });

  it("drops user info and masks query values, except public ones", () => {
    const masked = maskUrl("https://alice:s3cret@rpc.example.com/rpc?api-key=s3cret&x=1");
    expect(masked).toBe("https://rpc.example.com/rpc?api-key=***&x=***");
    expect(maskUrl("https://h.example/v1/x?apikey=SECRET&start=3&limit=2", { publicQuery: ["start", "limit"] })).toBe("https://h.example/v1/x?apikey=***&start=3&limit=2");
  });

  it("keeps what a client appends after the API marker", () => {
    const url = "https://aptos.example.com/9f8e7d6c5b4a39281706f5e4d3c2b1a0/v1/accounts/0x1/resource/0x1::account::Account";
    expect(maskUrl(url, { keepPathFrom: "v1" })).toBe("https://aptos.example.com/***/v1/accounts/0x1/resource/0x1::account::Account");
  });

  it("leaves loopback addresses and public paths alone", () => {
    expect(maskUrl("http://127.0.0.1:8545")).toBe("http://127.0.0.1:8545");
    expect(maskUrl("http://127.0.0.1:8000/subgraphs/name/local/approvals")).toBe("http://127.0.0.1:8000/subgraphs/name/local/approvals");
  });

  it("never echoes an unparsable URL", () => {
    expect(maskUrl("not a url with secret")).toBe("<invalid URL>");
  });
});

describe("secrets in free text", () => {
  it("finds the key segment, user info and query values", () => {
    expect(secretsInUrl("https://graph.example/abcdef0123456789/deploy")).toEqual(["abcdef0123456789"]);
    expect(secretsInUrl("https://user:supersecretpw@host.example/rpc?apikey=0123456789abcdef")).toEqual(["supersecretpw", "0123456789abcdef"]);
    expect(secretsInUrl("http://127.0.0.1:8020")).toEqual([]);
  });

  it("masks every occurrence", () => {
    const text = "Deployed to https://h/KEY1234567/deploy, queries at https://h/KEY1234567/subgraphs/name/x";
    expect(maskSecrets(text, ["KEY1234567"])).toBe("Deployed to https://h/***/deploy, queries at https://h/***/subgraphs/name/x");
  });

  it("replaces an error that mentions a secret, keeps one that does not", () => {
    const clean = new Error("connection refused");
    expect(errorWithoutSecrets(clean, ["KEY1234567"])).toBe(clean);
    const leaky = new TypeError("fetch https://h/KEY1234567/x failed");
    const safe = errorWithoutSecrets(leaky, ["KEY1234567"]) as Error;
    expect(safe.message).toBe("fetch https://h/***/x failed");
    expect(safe.name).toBe("TypeError");
  });
});
