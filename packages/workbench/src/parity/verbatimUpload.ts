// A build folder put into the local node's IPFS as it is, for cases whose manifest text matters: each
// `file:` the manifest names is added, and the manifest's own text goes up with only those paths replaced
// by `/ipfs/<cid>` links. graph-cli's deploy would read the manifest and write it again (quoting what gnd's
// build leaves plain, such as `address: 0x5FbD...`); this keeps every other byte as written.
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";

const FILE_LINE = /^(\s*(?:-\s+)?file:[ \t]*)(["']?)([^"'\s{][^"'\n]*?)\2[ \t]*$/gm;

/** Answers the manifest's CID; `add` puts bytes into the node's IPFS and answers their CID. */
export async function uploadBuildVerbatim(buildDir: string, add: (bytes: Uint8Array) => Promise<string>): Promise<string> {
  const text = await readFile(join(buildDir, "subgraph.yaml"), "utf8");
  const links = new Map<string, string>();
  for (const match of text.matchAll(FILE_LINE)) {
    const path = match[3]!;
    if (!links.has(path)) links.set(path, await add(await readFile(resolve(buildDir, path))));
  }
  if (links.size === 0) throw new Error(`the build manifest in ${buildDir} names no file: nothing to link`);
  const linked = text.replace(FILE_LINE, (_line, head: string, _quote: string, path: string) => `${head}/ipfs/${links.get(path)!}`);
  return add(new TextEncoder().encode(linked));
}
