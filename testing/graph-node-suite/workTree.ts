// A work copy of graph-node's case folders per engine (each engine patches the manifests with its own
// deployment ids), every case folder given its pinned graph-ts.
import { cp, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Toolchain } from "./toolchain.js";

export async function makeWorkTree(casesDir: string, into: string, tool: Toolchain): Promise<(name: string) => string> {
  await cp(casesDir, into, { recursive: true });
  for (const entry of await readdir(into, { withFileTypes: true })) if (entry.isDirectory()) await tool.linkDependencies(join(into, entry.name));
  return (name) => join(into, name);
}
