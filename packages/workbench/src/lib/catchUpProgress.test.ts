// The catch-up progress: plain lines off a terminal (rates and ETA from the blocks and events over time),
// and cli-progress's bar on one.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createProgressBoard, formatSeconds } from "./catchUpProgress.js";

function clock(): { now: () => number; advance(ms: number): void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe("catch-up progress", () => {
  it("writes plain lines off a terminal: blocks of the head, blocks/s, events/s and the time left", () => {
    const lines: string[] = [];
    const c = clock();
    const stream = Object.assign(new Writable({ write: (_c, _e, done) => done() }), { isTTY: false }) as unknown as NodeJS.WriteStream;
    const board = createProgressBoard({ stream, plainLine: (l) => lines.push(l), plainEveryMs: 2000, now: c.now });
    const bar = board.bar("Qm1", "[6/7] indexed", 1);
    bar.update({ block: 10, head: 110, events: 100 });
    c.advance(1000);
    bar.update({ block: 20, head: 110, events: 300 }); // within 2 s of the last line: none
    c.advance(1000);
    bar.update({ block: 30, head: 110, events: 500 });
    c.advance(1000);
    bar.update({ block: 110, head: 110, events: 2100 }); // the head: always a line
    bar.update({ block: 110, head: 110, events: 2100 }); // no change: none
    board.log("another line");
    board.stop();
    expect(lines).toEqual([
      "[6/7] indexed block 10 of 110",
      // 20 blocks and 400 events in 2 s; 80 blocks left at 10 blocks/s.
      "[6/7] indexed block 30 of 110 (10.0 blocks/s, 200 events/s, ETA 8 s)",
      "[6/7] indexed block 110 of 110 (33.3 blocks/s, 667 events/s, ETA 0 s)",
      "another line",
    ]);
  });

  it("draws cli-progress's bar on a terminal, with the other lines above it", () => {
    let out = "";
    const stream = Object.assign(new Writable({ write: (chunk: Buffer, _e, done) => ((out += chunk.toString()), done()) }), { isTTY: true, columns: 200, cursorTo: () => true, clearLine: () => true, moveCursor: () => true }) as unknown as NodeJS.WriteStream;
    const c = clock();
    const board = createProgressBoard({ stream, now: c.now });
    const bar = board.bar("Qm1", "QmAbc catching up:", 1);
    bar.update({ block: 10, head: 50, events: 10 });
    c.advance(1000);
    bar.update({ block: 30, head: 50, events: 50 });
    board.log("a log line");
    board.stop();
    expect(out).toContain("QmAbc catching up:");
    expect(out).toContain("block 30 of 50");
    expect(out).toContain("20.0 blocks/s, 40.0 events/s | ETA 1 s");
    expect(out).toContain("a log line");
    expect(out).toMatch(/60%/);
  });

  it("words the time left", () => {
    expect([formatSeconds(null), formatSeconds(0.2), formatSeconds(89), formatSeconds(600), formatSeconds(7200)]).toEqual(["?", "1 s", "89 s", "10.0 min", "2.0 h"]);
  });
});
