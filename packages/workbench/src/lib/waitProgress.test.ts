import { describe, expect, it } from "vitest";
import { whileWaiting } from "./waitProgress.js";

const notATerminal = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("whileWaiting", () => {
  it("without a terminal, says it is still waiting while the work lasts, and nothing after", async () => {
    const lines: string[] = [];
    expect(await whileWaiting("graph build", after(130).then(() => 7), { stream: notATerminal, plainLine: (l) => lines.push(l), plainEveryMs: 50 })).toBe(7);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toMatch(/^graph build: still waiting, \d+ s so far$/);
    const seen = lines.length;
    await after(120);
    expect(lines.length).toBe(seen);
  });

  it("passes the work's error on, and prints nothing for a wait shorter than the first line's delay", async () => {
    const lines: string[] = [];
    await expect(whileWaiting("compile", Promise.reject(new Error("boom")), { stream: notATerminal, plainLine: (l) => lines.push(l) })).rejects.toThrow("boom");
    expect(lines).toEqual([]);
  });
});
