import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseManifestYaml } from "../lib/manifestYaml.js";
import { uploadBuildVerbatim } from "./verbatimUpload.js";

describe("uploadBuildVerbatim", () => {
  let dir = "";
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it("links each named file and keeps every other byte of the manifest, unquoted addresses included", async () => {
    dir = await mkdtemp(join(tmpdir(), "verbatim-"));
    await mkdir(join(dir, "A"));
    await writeFile(join(dir, "schema.graphql"), "type T @entity { id: ID! }");
    await writeFile(join(dir, "A", "A.wasm"), "wasm");
    await writeFile(join(dir, "A", "A.json"), "[]");
    const manifest = [
      "specVersion: 1.2.0",
      "schema:",
      "  file: schema.graphql",
      "dataSources:",
      "  - source:",
      "      address: 0x5FbDB2315678afecb367f032d93F642f64180aa3",
      "    mapping:",
      "      abis:",
      "        - name: A",
      "          file: 'A/A.json'",
      "      file: A/A.wasm",
      "",
    ].join("\n");
    await writeFile(join(dir, "subgraph.yaml"), manifest);
    const added: string[] = [];
    const add = async (bytes: Uint8Array) => (added.push(new TextDecoder().decode(bytes)), `cid${added.length}`);
    expect(await uploadBuildVerbatim(dir, add)).toBe("cid4");
    expect(added.slice(0, 3)).toEqual(["type T @entity { id: ID! }", "[]", "wasm"]);
    expect(added[3]).toBe(manifest.replace("file: schema.graphql", "file: /ipfs/cid1").replace("file: 'A/A.json'", "file: /ipfs/cid2").replace("file: A/A.wasm", "file: /ipfs/cid3"));
    const doc = parseManifestYaml(added[3]!) as { dataSources: { source: { address: unknown } }[] };
    expect(doc.dataSources[0]!.source.address).toBe("0x5FbDB2315678afecb367f032d93F642f64180aa3");
  });
});
