import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverTests } from "./discover.js";
import { ConfigError, DiscoveryError } from "./errors.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "runner-discover-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function touch(rel: string): void {
  const full = join(dir, rel);
  mkdirSync(join(full, ".."), { recursive: true });
  writeFileSync(full, "");
}

describe("discoverTests", () => {
  it("names files by their path under the tests folder, lowercase, without .test.ts", () => {
    touch("tests/Asserts.test.ts");
    touch("tests/gravity/gravity.test.ts");
    touch("tests/gravity/utils.ts");
    touch("tests/.bin/old.test.ts");
    const files = discoverTests(join(dir, "tests"));
    expect(files.map((f) => f.name)).toEqual(["asserts", "gravity/gravity"]);
    expect(files[1]?.path).toBe(join(dir, "tests/gravity/gravity.test.ts"));
  });

  it("filters by a data source folder or a file prefix, as graph test <name>", () => {
    touch("tests/gravity/gravity.test.ts");
    touch("tests/gravity/more.test.ts");
    touch("tests/token-lock-wallet/token-lock-wallet.test.ts");
    touch("tests/asserts.test.ts");
    const tests = join(dir, "tests");
    expect(discoverTests(tests, ["gravity"]).map((f) => f.name)).toEqual(["gravity/gravity", "gravity/more"]);
    expect(discoverTests(tests, ["asserts"]).map((f) => f.name)).toEqual(["asserts"]);
    expect(discoverTests(tests, ["Token-Lock", "asserts"]).map((f) => f.name)).toEqual(["asserts", "token-lock-wallet/token-lock-wallet"]);
  });

  it("reports a missing folder, an empty folder and a filter without match", () => {
    expect(() => discoverTests(join(dir, "nope"))).toThrow(ConfigError);
    mkdirSync(join(dir, "tests"));
    expect(() => discoverTests(join(dir, "tests"))).toThrow(/No tests have been written yet/);
    touch("tests/a.test.ts");
    expect(() => discoverTests(join(dir, "tests"), ["zzz"])).toThrow(DiscoveryError);
  });
});
