// The compile cache: `tests/.bin/<name>.wasm` is reused while the hash of everything that went into it
// is unchanged — the test file, every project file it imports (transitively), the versions of the
// packages it imports, the compiler version and flags. The hash lives beside the wasm in `<name>.hash`.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { collectImportGraph } from "./importGraph.js";

export interface CacheKeyInput {
  root: string;
  libsFolder: string;
  entry: string;
  compilerVersion: string;
  flags: readonly string[];
}

function packageVersion(libsFolder: string, name: string): string {
  const file = join(libsFolder, name, "package.json");
  if (!existsSync(file)) return "missing";
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unreadable";
  }
}

/** A hex digest over the test file's import graph and the toolchain. */
export function cacheKey(input: CacheKeyInput): string {
  const graph = collectImportGraph(input.entry);
  const hash = createHash("sha256");
  hash.update(`asc ${input.compilerVersion}\n${input.flags.join(" ")}\n`);
  // graph-ts is always compiled in (global.ts), whether imported or not.
  const packages = new Set(["@graphprotocol/graph-ts", ...graph.packages]);
  for (const name of [...packages].sort()) hash.update(`pkg ${name}@${packageVersion(input.libsFolder, name)}\n`);
  for (const file of graph.files) {
    hash.update(`file ${relative(input.root, file)}\n`);
    hash.update(readFileSync(file));
    hash.update("\n");
  }
  return hash.digest("hex");
}

export function hashFileFor(wasmFile: string): string {
  return wasmFile.replace(/\.wasm$/, ".hash");
}

/** True when the wasm exists and was built from exactly this key. */
export function isFresh(wasmFile: string, key: string): boolean {
  const keyFile = hashFileFor(wasmFile);
  if (!existsSync(wasmFile) || !existsSync(keyFile)) return false;
  return readFileSync(keyFile, "utf8").trim() === key;
}

export function recordKey(wasmFile: string, key: string): void {
  writeFileSync(hashFileFor(wasmFile), `${key}\n`);
}
