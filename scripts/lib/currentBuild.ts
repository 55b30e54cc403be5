// Whether build/ (what `npm run build` leaves) can be deployed as it is: built for the network being
// deployed and newer than everything it was made from. graph deploy would otherwise compile the same
// subgraph again (about 4 s); a stale or foreign build must not be deployed, so anything unsure says no.
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { parse } from "yaml";

export type BuildVerdict = { current: true; builtAt: Date } | { current: false; reason: string };

/** The project's sources a build is made from; folders count with everything in them (a removed file changes its folder). */
const SOURCES = ["subgraph.yaml", "schema.graphql", "networks.json", "src", "abis"];

export async function currentBuild(projectDir: string, network: string, buildDir = "build"): Promise<BuildVerdict> {
  const manifestPath = join(projectDir, buildDir, "subgraph.yaml");
  const built = await stat(manifestPath).catch(() => null);
  if (!built) return { current: false, reason: `there is no build in ${buildDir}/` };
  let manifest: Manifest;
  try {
    manifest = (parse(await readFile(manifestPath, "utf8")) ?? {}) as Manifest;
  } catch {
    return { current: false, reason: `${buildDir}/subgraph.yaml is not YAML` };
  }
  if ((manifest.dataSources ?? []).length === 0) return { current: false, reason: `${buildDir}/subgraph.yaml has no data source` };
  // Templates carry a network too: graph build writes it into each.
  const other = [...(manifest.dataSources ?? []), ...(manifest.templates ?? [])].find((s) => s.network !== network);
  if (other) return { current: false, reason: `${buildDir}/ was built for network ${String(other.network)}, not ${network}` };
  const newer = await newestSource(projectDir);
  if (newer && newer.mtimeMs >= built.mtimeMs) return { current: false, reason: `${newer.path} changed after the build in ${buildDir}/` };
  return { current: true, builtAt: built.mtime };
}

interface Manifest {
  dataSources?: { network?: unknown }[];
  templates?: { network?: unknown }[];
}

/** The most recently changed source: the fixed list, plus any file the source manifest names elsewhere. */
async function newestSource(projectDir: string): Promise<{ path: string; mtimeMs: number } | null> {
  const paths = new Set(SOURCES.map((p) => join(projectDir, p)));
  for (const p of [...paths]) {
    const entries = await readdir(p, { recursive: true }).catch(() => []);
    for (const entry of entries) paths.add(join(p, entry));
  }
  for (const file of await namedFiles(join(projectDir, "subgraph.yaml"))) paths.add(resolve(projectDir, file));
  let newest: { path: string; mtimeMs: number } | null = null;
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (info && (!newest || info.mtimeMs > newest.mtimeMs)) newest = { path: relative(projectDir, path), mtimeMs: info.mtimeMs };
  }
  return newest;
}

/** Every `file:` of the source manifest (schema, ABIs, mappings), wherever they live. */
async function namedFiles(manifestPath: string): Promise<string[]> {
  const files: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === "object" && node !== null) for (const [key, value] of Object.entries(node)) key === "file" && typeof value === "string" ? files.push(value) : walk(value);
  };
  try {
    walk(parse(await readFile(manifestPath, "utf8")));
  } catch {
    // An unreadable manifest: graph deploy reports it better than this check would.
  }
  return files;
}

/** `2025-12-01 22:28:03`, local time. */
export function formatBuildTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
