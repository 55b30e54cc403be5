// Watches a subgraph folder's sources (subgraph.yaml, schema.graphql, src/, abis/) and reports a save
// once the files have been quiet for `debounceMs`. Changes are told by content, not by events: editors
// write in several steps, and `graph build --network` rewrites subgraph.yaml with the same text.
import { watch, type FSWatcher } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { join, relative } from "node:path";

export interface SubgraphWatcher {
  /** The files whose content changed since the base (relative to the folder), added and removed ones included. */
  peekChanges(): Promise<string[]>;
  /** Those files, which then become the base. */
  takeChanges(): Promise<string[]>;
  /** Takes these files' current content as the base (graph-cli's own rewrite of subgraph.yaml). */
  rebase(files: string[]): Promise<void>;
  close(): void;
}

export interface SubgraphWatcherOptions {
  dir: string;
  debounceMs?: number;
  /** Files were written and have been quiet for `debounceMs`; `savedAt` is when the first write arrived. */
  onSave: (savedAt: number) => void;
  onError?: (error: unknown) => void;
}

const TOP_FILES = ["subgraph.yaml", "schema.graphql"];
const TREES = ["src", "abis"];

/** Content digests of every watched file, keyed by path relative to the folder. */
export async function snapshotSources(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const add = async (path: string) => {
    try {
      out.set(relative(dir, path), createHash("sha256").update(await readFile(path)).digest("hex"));
    } catch {
      // Gone between listing and reading (an editor's swap file): absent.
    }
  };
  for (const name of TOP_FILES) await add(join(dir, name));
  for (const tree of TREES) {
    let entries: string[] = [];
    try {
      entries = await readdir(join(dir, tree), { recursive: true });
    } catch {
      continue;
    }
    for (const entry of entries) await add(join(dir, tree, entry));
  }
  // Folders read as files fail and drop out above; nothing else to filter.
  return out;
}

/** `tree` and every folder below it, relative to `dir`; none when `tree` does not exist. */
async function foldersUnder(dir: string, tree: string): Promise<string[]> {
  try {
    const entries = await readdir(join(dir, tree), { recursive: true, withFileTypes: true });
    return [tree, ...entries.filter((e) => e.isDirectory()).map((e) => relative(dir, join(e.parentPath, e.name)))];
  } catch {
    return [];
  }
}

export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

export async function createSubgraphWatcher(options: SubgraphWatcherOptions): Promise<SubgraphWatcher> {
  const debounceMs = options.debounceMs ?? 150;
  let base = await snapshotSources(options.dir);
  let timer: NodeJS.Timeout | null = null;
  let firstEventAt: number | null = null;
  let closed = false;

  const onEvent = (name: string) => {
    if (closed) return;
    // The folder's own event names the entry: "src" or "abis" when one of those trees appears.
    if (!TOP_FILES.includes(name) && !TREES.some((tree) => name === tree || name.startsWith(`${tree}/`))) return;
    firstEventAt ??= Date.now();
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      const savedAt = firstEventAt ?? Date.now();
      firstEventAt = null;
      if (!closed) options.onSave(savedAt);
    }, debounceMs);
  };

  // One non-recursive watcher per folder: Linux's inotify sees every write and rename inside a watched
  // folder, where a watch on a file is lost once an editor replaces that file by a new one.
  const watchers = new Map<string, FSWatcher>();
  const watchFolder = (relativeDir: string) => {
    if (watchers.has(relativeDir) || closed) return;
    try {
      const watcher = watch(join(options.dir, relativeDir), (_event, name) => {
        const file = name === null ? relativeDir : join(relativeDir, String(name));
        onEvent(file);
        // A new folder in a source tree gets its own watcher.
        if (file !== "" && TREES.some((tree) => file === tree || file.startsWith(`${tree}/`))) void watchTrees();
      });
      watcher.on("error", (error) => options.onError?.(error));
      watchers.set(relativeDir, watcher);
    } catch {
      // Gone already (a folder removed right after its creation): nothing to watch.
    }
  };
  const watchTrees = async () => {
    for (const tree of TREES) {
      for (const folder of await foldersUnder(options.dir, tree)) watchFolder(folder);
    }
  };
  watchFolder("");
  await watchTrees();

  return {
    async peekChanges() {
      return changedFiles(base, await snapshotSources(options.dir));
    },
    async takeChanges() {
      const now = await snapshotSources(options.dir);
      const files = changedFiles(base, now);
      base = now;
      return files;
    },
    async rebase(files) {
      const now = await snapshotSources(options.dir);
      for (const file of files) {
        const digest = now.get(file);
        if (digest === undefined) base.delete(file);
        else base.set(file, digest);
      }
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
    },
  };
}
