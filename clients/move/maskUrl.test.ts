import { describe, expect, it } from "vitest";
import { maskUrl } from "./maskUrl.js";

describe("maskUrl", () => {
  it("hides a key path segment but keeps the API path the client appends", () => {
    const url = "https://aptos.example.com/9f8e7d6c5b4a39281706f5e4d3c2b1a0/v1/accounts/0x1/resource/0x1::account::Account";
    expect(maskUrl(url)).toBe("https://aptos.example.com/***/v1/accounts/0x1/resource/0x1::account::Account");
  });

  it("drops user info and query values other than paging", () => {
    expect(maskUrl("https://user:pw@host.example/v1/x?apikey=SECRET&start=3&limit=2")).toBe(
      "https://host.example/v1/x?apikey=***&start=3&limit=2",
    );
  });

  it("keeps short words and version markers", () => {
    expect(maskUrl("http://127.0.0.1:8080/aptos/mainnet")).toBe("http://127.0.0.1:8080/aptos/mainnet");
  });

  it("never echoes an unparsable URL", () => {
    expect(maskUrl("not a url SECRET")).toBe("<invalid URL>");
  });
});
