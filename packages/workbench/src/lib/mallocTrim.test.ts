import koffi from "koffi";
import { describe, expect, it } from "vitest";
import { startMallocTrim } from "./mallocTrim.js";

const MiB = 2 ** 20;

/** glibc's malloc, free and memset, called directly: the test decides which blocks stay live. */
function libcMalloc() {
  const libc = koffi.load("libc.so.6");
  return { malloc: libc.func("void *malloc(size_t size)"), free: libc.func("void free(void *ptr)"), memset: libc.func("void *memset(void *s, int c, size_t n)") };
}

/** Fills malloc's heap with small blocks, then frees 15 of every 16: pages freed between live blocks. */
function leaveFreedPagesBetweenLiveBlocks({ malloc, free, memset }: ReturnType<typeof libcMalloc>): unknown[] {
  const blocks: unknown[] = [];
  for (let i = 0; i < 96 * 1024; i++) {
    const block = malloc(1000);
    memset(block, 1, 1000); // touched, as real data would be: resident
    blocks.push(block);
  }
  const live = blocks.filter((_, i) => i % 16 === 0);
  blocks.forEach((b, i) => i % 16 !== 0 && free(b));
  return live;
}

describe.runIf(process.platform === "linux")("startMallocTrim", () => {
  it("gives the pages freed inside malloc's heaps back to the system", async () => {
    const libc = libcMalloc();
    const live = leaveFreedPagesBetweenLiveBlocks(libc);
    await new Promise((r) => setTimeout(r, 200));
    const before = process.memoryUsage.rss();
    const trimming = startMallocTrim({ intervalMs: 20 });
    try {
      expect(trimming.unsupported).toBeNull();
      await new Promise((r) => setTimeout(r, 300));
      // About 88 MiB were freed in runs of 15 blocks (about 14 KiB, three whole pages each).
      expect((before - process.memoryUsage.rss()) / MiB).toBeGreaterThan(40);
    } finally {
      trimming.stop();
      live.forEach((b) => libc.free(b));
    }
  });
});
