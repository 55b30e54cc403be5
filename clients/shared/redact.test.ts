import { describe, expect, it } from "vitest";
import { maskSecrets, redactUrl, secretsInUrl } from "./redact.js";

describe("redaction of access keys in URLs", () => {
  it("finds the key segment of platform deploy and IPFS addresses", () => {
    expect(secretsInUrl("https://graph.example/abcdef0123456789/deploy")).toEqual(["abcdef0123456789"]);
    expect(secretsInUrl("https://graph.example/abcdef0123456789/ipfs")).toEqual(["abcdef0123456789"]);
    expect(secretsInUrl("http://127.0.0.1:8020")).toEqual([]);
  });

  it("masks user info and query values too", () => {
    expect(redactUrl("https://user:supersecretpw@host.example/rpc?apikey=0123456789abcdef")).not.toMatch(/supersecretpw|0123456789abcdef/);
  });

  it("masks every occurrence in free text", () => {
    const text = "Deployed to https://h/KEY1234567/deploy, queries at https://h/KEY1234567/subgraphs/name/x";
    expect(maskSecrets(text, ["KEY1234567"])).toBe("Deployed to https://h/***/deploy, queries at https://h/***/subgraphs/name/x");
  });

  it("keeps short public paths intact", () => {
    expect(redactUrl("http://127.0.0.1:8000/subgraphs/name/local/approvals")).toBe("http://127.0.0.1:8000/subgraphs/name/local/approvals");
  });
});
