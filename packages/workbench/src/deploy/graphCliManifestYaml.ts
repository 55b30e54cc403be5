// The text `graph build --ipfs` uploads as the manifest: graph-cli's compiler dumps it with its own
// js-yaml, keys sorted and no anchors (`_uploadSubgraphDefinitionToIPFS`); that text's hash is the
// deployment id. Its bytes differ from build/subgraph.yaml (written with another YAML library, keys
// in source order), so the dump is redone here with the very js-yaml that graph-cli install loads:
// each release then gets the id it would print itself.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { UploadBuildError } from "./errors.js";

interface JsYaml {
  dump(value: unknown, options: { noRefs: boolean; sortKeys: boolean }): string;
  safeDump(value: unknown, options: { noRefs: boolean; sortKeys: boolean }): string;
}

/** The manifest dumper of the graph-cli whose entry point (`bin/run.js`) is `graphCliBin`. */
export function graphCliManifestYaml(graphCliBin: string): (manifest: unknown) => string {
  const root = dirname(dirname(graphCliBin));
  let jsYaml: JsYaml;
  let major: number;
  try {
    const requireFromCli = createRequire(join(root, "package.json"));
    jsYaml = requireFromCli("js-yaml") as JsYaml;
    major = Number((requireFromCli("js-yaml/package.json") as { version: string }).version.split(".")[0]);
  } catch (cause) {
    throw new UploadBuildError(`the graph-cli in ${root} has no js-yaml to write the manifest with, as its build --ipfs does`, { cause, details: { graphCli: root } });
  }
  // Releases on js-yaml 3 (0.87 is one) call safeDump; js-yaml 4 removed it and its dump is the safe one.
  const options = { noRefs: true, sortKeys: true };
  return major < 4 ? (manifest) => jsYaml.safeDump(manifest, options) : (manifest) => jsYaml.dump(manifest, options);
}
