// A graph-cli build folder put into a node's IPFS the way `graph build --ipfs` uploads it: every `file:`
// the built manifest names (schema, ABIs, WASM) added first and replaced by a `{'/': '/ipfs/<cid>'}`
// link, then the manifest itself. Answers the manifest's hash, the deployment id.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parse, stringify } from "yaml";
import { GndTestError } from "./testFile.js";

export interface IpfsAdder {
  add(bytes: Uint8Array): Promise<string>;
}

export async function uploadBuild(manifestPath: string, ipfs: IpfsAdder): Promise<string> {
  const dir = dirname(manifestPath);
  const manifest: unknown = parse(await readFile(manifestPath, "utf8"));
  const added = new Map<string, string>();
  const link = async (path: string): Promise<{ "/": string }> => {
    let cid = added.get(path);
    if (cid === undefined) {
      const bytes = await readFile(join(dir, path)).catch((error: unknown) => {
        throw new GndTestError(`the build's manifest names ${path}, which is not in ${dir}`, { cause: error });
      });
      cid = await ipfs.add(bytes);
      added.set(path, cid);
    }
    return { "/": `/ipfs/${cid}` };
  };
  const walk = async (node: unknown): Promise<unknown> => {
    if (Array.isArray(node)) return Promise.all(node.map(walk));
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = key === "file" && typeof value === "string" ? await link(value) : await walk(value);
    return out;
  };
  const uploaded = await walk(manifest);
  return ipfs.add(new TextEncoder().encode(stringify(uploaded)));
}
