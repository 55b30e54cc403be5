// The manifest edits graph-node's harness makes before a build (tests/src/subgraph.rs): every
// `@<ContractName>@` becomes that contract's address, and every `@<case>@` naming a source subgraph
// (a graft base, a `kind: subgraph` source) becomes that deployment's id. The result is written beside
// the manifest as `subgraph.yaml.patched`, which is what gets built and deployed.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";

export const PATCHED_MANIFEST = "subgraph.yaml.patched";

/** Replaces each `@key@` with its value, as `str::replace` does (every occurrence). */
export function patchPlaceholders(manifest: string, replacements: readonly (readonly [string, string])[]): string {
  let out = manifest;
  for (const [key, value] of replacements) out = out.split(`@${key}@`).join(value);
  return out;
}

/** Whether any data source is `kind: subgraph` (graph-node's harness then gives codegen `--ipfs`). */
export function hasSubgraphDataSource(manifest: string): boolean {
  const parsed = parse(manifest) as { dataSources?: { kind?: unknown }[] } | null;
  return (parsed?.dataSources ?? []).some((d) => d.kind === "subgraph");
}

/** Writes `subgraph.yaml.patched` in a case folder: contracts first, then source deployments. */
export async function writePatchedManifest(caseDir: string, contracts: readonly { name: string; address: string }[], sources: readonly (readonly [string, string])[]): Promise<{ path: string; subgraphSources: boolean }> {
  const original = await readFile(join(caseDir, "subgraph.yaml"), "utf8");
  const patched = patchPlaceholders(patchPlaceholders(original, contracts.map((c) => [c.name, c.address] as const)), sources);
  const path = join(caseDir, PATCHED_MANIFEST);
  await writeFile(path, patched);
  return { path, subgraphSources: hasSubgraphDataSource(patched) };
}
