// Gives back the `node` binary's pages that only start-up needed. A process maps its binary from the file
// and the pages it touches stay resident: the dynamic linker reads the binary's symbol tables (about
// 8 MiB: node exports every symbol, for addons), and start-up runs and reads code that nothing runs
// again (bootstrap, module loading, the first compiles). They are clean copies of the file, which the
// kernel would drop under pressure; madvise(MADV_DONTNEED) drops them now, and any page still used
// comes back from the page cache on its next touch. Only read-only mappings that hold nothing but the
// file's bytes are advised: the relocated ones (RELRO) and data stay.
import { readFile, realpath } from "node:fs/promises";
import { libcFunction } from "./libc.js";

const MADV_DONTNEED = 4;

type Madvise = (addr: bigint, length: number, advice: number) => number;

interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  path: string;
  rssKiB: number;
  /** Pages that differ from the file (written, or relocated then made read-only). */
  changedKiB: number;
}

/** The process's mappings with their resident and changed sizes, from /proc/self/smaps. */
export async function ownMappings(): Promise<Mapping[]> {
  const mappings: Mapping[] = [];
  let current: Mapping | null = null;
  for (const line of (await readFile("/proc/self/smaps", "utf8")).split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = { start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3]!, path: head[4]!, rssKiB: 0, changedKiB: 0 };
      mappings.push(current);
      continue;
    }
    const field = /^(Rss|Private_Dirty|Anonymous):\s+(\d+) kB/.exec(line);
    if (!field || !current) continue;
    if (field[1] === "Rss") current.rssKiB = Number(field[2]);
    else current.changedKiB += Number(field[2]);
  }
  return mappings;
}

/** What was given back (the advised mappings' resident KiB before), or why nothing can be here. */
export async function releaseBinaryPages(): Promise<{ releasedKiB: number } | { unsupported: string }> {
  // Linux only, as /proc/self/smaps: libcFunction says why not elsewhere.
  const madvise = libcFunction<Madvise>("int madvise(uintptr_t addr, size_t length, int advice)");
  if (typeof madvise === "string") return { unsupported: madvise };
  const binary = await realpath(process.execPath);
  let releasedKiB = 0;
  for (const m of await ownMappings()) {
    if (m.path !== binary || m.perms.includes("w") || m.changedKiB > 0 || m.rssKiB === 0) continue;
    if (madvise(m.start, Number(m.end - m.start), MADV_DONTNEED) === 0) releasedKiB += m.rssKiB;
  }
  return { releasedKiB };
}
