// Which deployment forks from which (graph-node keeps `debug_fork` with the deployment): recorded when a
// deployment is first created with `subgraph_deploy {debug_fork}`, read again when the node resumes it.
// Kept in a small JSON file in the node's data folder; in memory for a node without one.
import { readFile, rename, writeFile } from "node:fs/promises";

export interface DebugForkRecords {
  /** The fork id recorded for the deployment, or null. */
  get(deploymentId: string): Promise<string | null>;
  /** Records the fork of a newly created deployment (graph-node never changes it afterwards). */
  record(deploymentId: string, forkId: string): Promise<void>;
}

export function createDebugForkRecords(options: { file?: string } = {}): DebugForkRecords {
  let loaded: Promise<Map<string, string>> | null = null;
  async function load(): Promise<Map<string, string>> {
    if (!options.file) return new Map();
    try {
      const parsed = JSON.parse(await readFile(options.file, "utf8")) as Record<string, unknown>;
      return new Map(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Map();
      throw error;
    }
  }
  const records = (): Promise<Map<string, string>> => (loaded ??= load());
  // Writes one after another, each the whole map, through a temporary file.
  let writing: Promise<void> = Promise.resolve();
  return {
    async get(deploymentId) {
      return (await records()).get(deploymentId) ?? null;
    },
    async record(deploymentId, forkId) {
      const map = await records();
      if (map.has(deploymentId)) return;
      map.set(deploymentId, forkId);
      const file = options.file;
      if (!file) return;
      const text = JSON.stringify(Object.fromEntries(map), null, 2);
      writing = writing.catch(() => {}).then(async () => {
        await writeFile(`${file}.tmp`, text);
        await rename(`${file}.tmp`, file);
      });
      await writing;
    },
  };
}
