import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { declaredRange, lockedVersion } from "./lockVersions.js";

const dir = mkdtempSync(join(tmpdir(), "lock-versions-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("lockedVersion", () => {
  it("reads package-lock v3, yarn classic and yarn berry entries", () => {
    const npm = join(dir, "npm");
    mkdirSync(npm);
    writeFileSync(join(npm, "package-lock.json"), JSON.stringify({ packages: { "node_modules/matchstick-as": { version: "0.6.0" } } }));
    expect(lockedVersion(npm, npm, "matchstick-as")).toBe("0.6.0");
    const classic = join(dir, "classic");
    mkdirSync(classic);
    writeFileSync(join(classic, "yarn.lock"), '"@graphprotocol/graph-ts-extra@^1.0.0":\n  version "9.9.9"\n\n"@graphprotocol/graph-ts@^0.31.0", "@graphprotocol/graph-ts@0.31.0":\n  version "0.31.0"\n  resolved "x"\n');
    expect(lockedVersion(classic, classic, "@graphprotocol/graph-ts")).toBe("0.31.0");
    const berry = join(dir, "berry", "sub");
    mkdirSync(berry, { recursive: true });
    writeFileSync(join(dir, "berry", "yarn.lock"), '"matchstick-as@npm:^0.6.0":\n  version: 0.6.0\n  resolution: "matchstick-as@npm:0.6.0"\n');
    expect(lockedVersion(berry, join(dir, "berry"), "matchstick-as")).toBe("0.6.0");
    expect(lockedVersion(berry, join(dir, "berry"), "nothing")).toBeNull();
  });

  it("falls back to the declared range", () => {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ devDependencies: { "matchstick-as": "^0.5.0" } }));
    expect(declaredRange(dir, "matchstick-as")).toBe("^0.5.0");
  });
});
