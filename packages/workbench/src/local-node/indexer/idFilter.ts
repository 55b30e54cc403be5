// The ids of one entity type that may be in the store, kept as 32-bit hashes instead of the strings:
// 100,000 ids held about 10 MB of the handlers' thread's heap as strings, each copied twice by the
// young-generation collector before it settled. A hash that collides only makes the worker ask the
// store about an id that is not there (the answer is still "absent"); it never hides one that is.

export class IdFilter {
  private readonly hashes = new Set<number>();

  add(id: string): void {
    this.hashes.add(fnv1a(id));
  }

  /** False only if `id` was never added. */
  mayHave(id: string): boolean {
    return this.hashes.has(fnv1a(id));
  }
}

/** FNV-1a over UTF-16 code units, as a signed 32-bit integer (a small integer to V8: no allocation). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}
