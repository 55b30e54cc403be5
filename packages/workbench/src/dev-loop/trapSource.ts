// Where a version's trap happened in the AssemblyScript source. graph-cli's build makes no source map,
// so after a version fails in its mapping the loop compiles that data source's mapping again as graph
// build does (same file, same asc flags) with `--sourceMap`, checks that the code is byte for byte the one
// deployed, places the node's wasm frames with the map, and hands the map to the node (its dashboard and
// log then name the source line too). Only when a trap happened: a save that works costs nothing.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { errorText } from "../lib/errors.js";
import { parseManifestYaml } from "../lib/manifestYaml.js";
import { sameCodeAndOffsets } from "../lib/wasmSections.js";
import { describeFrames, sourceLocator, type WasmFrame } from "../lib/wasmStack.js";
import { createCompilePool } from "../test-runner/index.js";

/** graph-cli's flags for a mapping (its compiler/asc.js), plus the source map. */
export const GRAPH_BUILD_ASC_FLAGS = ["--explicitStart", "--exportRuntime", "--runtime", "stub", "--optimize", "--debug"] as const;

interface NodeTrap {
  dataSource: string | null;
  handler: string | null;
  block: number;
  frames: WasmFrame[];
}

export type TrapSource =
  | { kind: "located"; dataSource: string; location: string }
  /** No source line: why (the node kept no frames, the build differs, ...), and the frames as the node names them. */
  | { kind: "unplaced"; reason: string; location: string | null };

export interface TrapSourceParameters {
  /** The subgraph folder: subgraph.yaml and graph-cli's `build/` of the version that failed. */
  dir: string;
  deploymentId: string;
  /** The local node's query server (its `/_workbench/api`); null for another engine. */
  nodeUrl: string;
}

/** The failed version's trap at its source; null when the node answers no trap (another engine, no wasm frame). */
export async function locateTrapSource(params: TrapSourceParameters): Promise<TrapSource | null> {
  const api = `${params.nodeUrl.replace(/\/$/, "")}/_workbench/api`;
  const trap = await fetchTrap(`${api}/trap/${encodeURIComponent(params.deploymentId)}`);
  if (!trap || trap.frames.length === 0) return null;
  const named = describeFrames(trap.frames);
  if (!trap.dataSource) return { kind: "unplaced", reason: "the node did not say which data source trapped", location: named };
  const mapping = mappingOf(params.dir, trap.dataSource);
  if ("reason" in mapping) return { kind: "unplaced", reason: mapping.reason, location: named };
  const compiled = await compileWithSourceMap(params.dir, mapping.source);
  if ("reason" in compiled) return { kind: "unplaced", reason: compiled.reason, location: named };
  const deployed = await readFile(mapping.built);
  if (!sameCodeAndOffsets(deployed, compiled.wasm)) {
    return { kind: "unplaced", reason: `compiling ${mapping.source} again made other code than graph build's ${mapping.built} (another AssemblyScript or graph-ts, or a save since the build)`, location: named };
  }
  const location = describeFrames(trap.frames, sourceLocator(compiled.sourceMap));
  // The dashboard and the node's log place it too; a node that refuses the map costs only that.
  await fetch(`${api}/source-map/${encodeURIComponent(params.deploymentId)}/${encodeURIComponent(trap.dataSource)}`, { method: "POST", body: compiled.sourceMap, signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
  return { kind: "located", dataSource: trap.dataSource, location };
}

async function fetchTrap(url: string): Promise<NodeTrap | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return res.ok ? ((await res.json()) as NodeTrap) : null;
  } catch {
    // Not the local node (graph-node has no such path), or it went away.
    return null;
  }
}

/** The data source's (or template's) mapping source in subgraph.yaml, and its wasm in graph-cli's build. */
function mappingOf(dir: string, dataSource: string): { source: string; built: string } | { reason: string } {
  const source = mappingFileOf(join(dir, "subgraph.yaml"), dataSource);
  const built = mappingFileOf(join(dir, "build", "subgraph.yaml"), dataSource);
  if (!source || !built) return { reason: `no mapping of ${dataSource} in ${source ? "build/subgraph.yaml" : "subgraph.yaml"}` };
  const sourcePath = resolve(dir, source);
  const builtPath = resolve(dir, "build", built);
  if (!existsSync(sourcePath) || !existsSync(builtPath)) return { reason: `${existsSync(sourcePath) ? builtPath : sourcePath} is not there` };
  return { source: sourcePath, built: builtPath };
}

function mappingFileOf(manifestPath: string, name: string): string | null {
  if (!existsSync(manifestPath)) return null;
  type Entry = { name?: unknown; mapping?: { file?: unknown } };
  const manifest = parseManifestYaml(readFileSync(manifestPath, "utf8")) as { dataSources?: Entry[]; templates?: Entry[] } | null;
  const entry = [...(manifest?.dataSources ?? []), ...(manifest?.templates ?? [])].find((e) => e?.name === name);
  return typeof entry?.mapping?.file === "string" ? entry.mapping.file : null;
}

/** The mapping compiled as graph build compiles it, with a source map; on a worker thread (asc may end its process). */
async function compileWithSourceMap(dir: string, source: string): Promise<{ wasm: Buffer; sourceMap: string } | { reason: string }> {
  const libsFolder = nodeModulesWithGraphTs(dir);
  if (!libsFolder) return { reason: `no node_modules with @graphprotocol/graph-ts above ${dir}` };
  const scratch = await mkdtemp(join(tmpdir(), "dev-trap-source-"));
  const pool = createCompilePool({ root: dir, libsFolder, jobs: 1, flags: [...GRAPH_BUILD_ASC_FLAGS, "--sourceMap"] });
  try {
    const outFile = join(scratch, "mapping.wasm");
    const result = await pool.compile(source, outFile);
    if (!result.ok) return { reason: `compiling ${source} with a source map failed: ${result.diagnostics.trim().split("\n").slice(0, 5).join(" ")}` };
    return { wasm: await readFile(outFile), sourceMap: await readFile(`${outFile}.map`, "utf8") };
  } catch (error) {
    return { reason: `compiling ${source} with a source map failed: ${errorText(error)}` };
  } finally {
    await pool.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Where graph-cli finds graph-ts: the nearest node_modules above the folder that holds it. */
function nodeModulesWithGraphTs(dir: string): string | null {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const candidate = join(at, "node_modules");
    if (existsSync(join(candidate, "@graphprotocol", "graph-ts", "global", "global.ts"))) return candidate;
    if (dirname(at) === at) return null;
  }
}
