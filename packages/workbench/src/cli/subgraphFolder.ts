// The subgraph a command works on, found as graph-cli finds it: `subgraph.yaml` in the current folder, or
// the manifest path given (a file, or a folder holding subgraph.yaml).
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

export interface SubgraphFolder {
  /** The folder the manifest is in: the project (package.json, networks.json, tests/). */
  dir: string;
  manifest: string;
}

export function findSubgraph(manifestArg: string | undefined, cwd: string = process.cwd()): SubgraphFolder {
  const given = resolve(cwd, manifestArg ?? "subgraph.yaml");
  const manifest = existsSync(given) && statSync(given).isDirectory() ? join(given, "subgraph.yaml") : given;
  if (!existsSync(manifest)) {
    throw new Error(manifestArg === undefined ? `no subgraph.yaml in ${cwd}: run the command in a subgraph folder, or name its manifest` : `no subgraph manifest at ${manifest}`);
  }
  return { dir: dirname(manifest), manifest };
}

/** The name to deploy under: SUBGRAPH_NAME, else `local/<name>` from the project's package.json or folder. */
export function defaultSubgraphName(dir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.SUBGRAPH_NAME) return env.SUBGRAPH_NAME;
  let name = basename(dir);
  try {
    const own = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown }).name;
    if (typeof own === "string" && own) name = own.replace(/^@[^/]+\//, "");
  } catch {
    // No package.json: the folder's name.
  }
  return `local/${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}
