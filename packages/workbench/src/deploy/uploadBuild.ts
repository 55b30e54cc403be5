// A graph-cli build folder put into IPFS the way `graph build --ipfs` uploads it: every `file:` the
// built manifest names (schema, ABIs, WASM) added first and replaced by a `{'/': '/ipfs/<cid>'}` link,
// then the manifest itself, dumped as that graph-cli dumps it. Answers the manifest's hash, the
// deployment id: the one `graph build --ipfs` prints for the same folder.
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { parseManifestYaml } from "../lib/manifestYaml.js";
import { findGraphCli } from "../lib/graphCli.js";
import { UploadBuildError } from "./errors.js";
import { graphCliManifestYaml } from "./graphCliManifestYaml.js";

export interface IpfsAdder {
  /** Adds one file (`name` as graph-cli names the upload, for the server's answer) and answers its CID. */
  add(bytes: Uint8Array, name?: string): Promise<string>;
}

export interface UploadBuildOptions {
  /** The graph-cli whose `build --ipfs` the upload matches (its `bin/run.js`); by default the one `projectDir` resolves. */
  graphCliBin?: string;
  /** Where that graph-cli is resolved from (the current directory by default). */
  projectDir?: string;
}

export async function uploadBuild(manifestPath: string, ipfs: IpfsAdder, options: UploadBuildOptions = {}): Promise<string> {
  const dump = graphCliManifestYaml(options.graphCliBin ?? findGraphCli(options.projectDir ?? process.cwd()).bin);
  const dir = dirname(manifestPath);
  const text = await readFile(manifestPath, "utf8").catch((error: unknown) => {
    throw new UploadBuildError(`there is no graph-cli build manifest at ${manifestPath}`, { cause: error });
  });
  let manifest: unknown;
  try {
    manifest = parseManifestYaml(text);
  } catch (error) {
    throw new UploadBuildError(`the build manifest ${manifestPath} is not YAML`, { cause: error });
  }
  // Each file once, however many places name it (graph-cli's upload cache); promises, as adds run concurrently.
  const added = new Map<string, Promise<string>>();
  const link = async (path: string): Promise<{ "/": string }> => {
    const absolute = resolve(dir, path);
    let cid = added.get(absolute);
    if (cid === undefined) {
      cid = readFile(absolute).then(
        (bytes) => ipfs.add(bytes, relative(dir, absolute)),
        (error: unknown) => {
          throw new UploadBuildError(`the build's manifest names ${path}, which is not in ${dir}`, { cause: error });
        },
      );
      added.set(absolute, cid);
    }
    return { "/": `/ipfs/${await cid}` };
  };
  const walk = async (node: unknown): Promise<unknown> => {
    if (Array.isArray(node)) return Promise.all(node.map(walk));
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = key === "file" && typeof value === "string" ? await link(value) : await walk(value);
    return out;
  };
  const uploaded = await walk(manifest);
  return ipfs.add(new TextEncoder().encode(dump(uploaded)), "subgraph.yaml");
}
