import { realpath } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { ownMappings, releaseBinaryPages } from "./binaryPages.js";

/** This process's mappings of its `node` binary. */
async function binaryMappings() {
  const binary = await realpath(process.execPath);
  return (await ownMappings()).filter((m) => m.path === binary);
}

describe.runIf(process.platform === "linux")("releaseBinaryPages", () => {
  it("drops the binary's resident read-only pages, keeps its changed ones, and the process runs on", async () => {
    const before = await binaryMappings();
    const clean = before.filter((m) => !m.perms.includes("w") && m.changedKiB === 0);
    const changed = before.filter((m) => m.perms.includes("w") || m.changedKiB > 0);
    // Start-up left megabytes of the binary resident (the dynamic linker's symbol tables alone are several).
    const cleanBefore = clean.reduce((n, m) => n + m.rssKiB, 0);
    expect(cleanBefore).toBeGreaterThan(8 * 1024);
    expect(changed.some((m) => m.changedKiB > 0)).toBe(true);

    const result = await releaseBinaryPages();
    if (!("releasedKiB" in result)) throw new Error(result.unsupported);
    // At least what was resident before (the code run in between touched more).
    expect(result.releasedKiB).toBeGreaterThanOrEqual(cleanBefore);

    const after = await binaryMappings();
    const cleanAfter = after.filter((m) => !m.perms.includes("w") && m.changedKiB === 0).reduce((n, m) => n + m.rssKiB, 0);
    // What the test ran since (code to read smaps again, this check) came back; most did not.
    expect(cleanAfter).toBeLessThan(cleanBefore / 2);
    // The pages that differ from the file were not advised: they are all still there.
    for (const m of changed) expect(after.find((a) => a.start === m.start)?.changedKiB).toBe(m.changedKiB);
    // Code dropped runs again from the file: JSON, regular expressions, a compile.
    expect(JSON.parse(JSON.stringify({ a: [1, "b"] }))).toEqual({ a: [1, "b"] });
    expect(new Function("x", "return x * 2")(21)).toBe(42);
  });
});
