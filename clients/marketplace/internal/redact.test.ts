import { describe, expect, it } from "vitest";
import { errorWithoutSecrets, maskSecrets, secretsOfUrl } from "./redact.js";

describe("redaction", () => {
  it("finds URL credentials, raw and decoded", () => {
    expect(secretsOfUrl("https://me:p%40ss@host.test/x")).toEqual(["me", "me", "p%40ss", "p@ss"]);
    expect(secretsOfUrl("https://host.test/x")).toEqual([]);
    expect(secretsOfUrl("not a url")).toEqual([]);
  });

  it("masks every occurrence and ignores empty secrets", () => {
    expect(maskSecrets("key=abc, again abc", ["abc", ""])).toBe("key=***, again ***");
  });

  it("keeps a clean error and replaces one that mentions a secret", () => {
    const clean = new Error("connect ECONNREFUSED");
    expect(errorWithoutSecrets(clean, ["s3cret"])).toBe(clean);
    const dirty = new TypeError("bad header Bearer s3cret");
    const safe = errorWithoutSecrets(dirty, ["s3cret"]) as Error;
    expect(safe).not.toBe(dirty);
    expect(safe.name).toBe("TypeError");
    expect(safe.message).toBe("bad header Bearer ***");
    expect(String(safe.stack)).not.toContain("s3cret");
    const viaCause = new Error("fetch failed", { cause: new Error("s3cret leaked") });
    expect(errorWithoutSecrets(viaCause, ["s3cret"])).not.toBe(viaCause);
    expect(errorWithoutSecrets("plain s3cret", ["s3cret"])).toBe("plain ***");
  });
});
