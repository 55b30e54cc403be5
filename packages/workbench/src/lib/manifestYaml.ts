// One reading of a subgraph manifest's YAML for every part of the package, as graph-node's serde_yaml
// reads it into its manifest types. serde_yaml hands a String field any plain scalar as written, so
// `address: 0x5FbD...` (gnd's build writes addresses unquoted) is the address, not a number. The YAML 1.2
// core schema would resolve hex (`0x..`) and octal (`0o..`) scalars to numbers and lose their text, so
// those two tags are left out and such scalars stay strings, exactly as written.
import { parse, type Tags } from "yaml";

const keepAsText = (tags: Tags): Tags => tags.filter((tag) => typeof tag === "string" || (tag.format !== "HEX" && tag.format !== "OCT"));

/** The manifest document as plain JS (throws the `yaml` package's error on text that is no YAML). */
export function parseManifestYaml(text: string): unknown {
  return parse(text, { prettyErrors: false, customTags: keepAsText });
}
