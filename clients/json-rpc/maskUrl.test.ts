import { describe, expect, it } from "vitest";
import { maskUrl } from "./maskUrl.js";

describe("maskUrl", () => {
  it("masks a key path segment and keeps host and port", () => {
    expect(maskUrl("https://nd-123-456-789.p2pify.com/0a1b2c3d4e5f67890a1b2c3d4e5f6789")).toBe("https://nd-123-456-789.p2pify.com/***");
  });

  it("keeps short words and version markers", () => {
    expect(maskUrl("https://mainnet.infura.io/v3/0a1b2c3d4e5f67890a1b2c3d4e5f6789")).toBe("https://mainnet.infura.io/v3/***");
    expect(maskUrl("https://graph.example.com/KEY123abc/deploy")).toBe("https://graph.example.com/***/deploy");
  });

  it("drops user info and query values", () => {
    const masked = maskUrl("https://alice:s3cret@rpc.example.com/rpc?api-key=s3cret&x=1");
    expect(masked).toBe("https://rpc.example.com/rpc?api-key=***&x=***");
    expect(masked).not.toContain("s3cret");
    expect(masked).not.toContain("alice");
  });

  it("leaves a plain local endpoint readable", () => {
    expect(maskUrl("http://127.0.0.1:8545")).toBe("http://127.0.0.1:8545");
  });

  it("does not echo an unparsable URL", () => {
    expect(maskUrl("not a url with secret")).toBe("<invalid URL>");
  });
});
