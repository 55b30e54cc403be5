// uploadBuild over a recording adder: every `file:` replaced by its upload's link (each file once),
// the manifest written last, as graph-cli's compiler writes it (its own js-yaml, keys sorted), for
// both graph-cli releases the project carries. Equality with graph-cli's hash: scripts/deployBuild.test.ts.
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { projectRoot } from "../../../../hardhat/projectRoot.js";
import { UploadBuildError } from "./errors.js";
import { uploadBuild, type IpfsAdder } from "./uploadBuild.js";

const MANIFEST = `specVersion: 0.0.5
schema:
  file: schema.graphql
dataSources:
  - kind: ethereum
    name: Token
    network: localhost
    source:
      address: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
      abi: Token
      startBlock: 2
    mapping:
      kind: ethereum/events
      apiVersion: 0.0.7
      language: wasm/assemblyscript
      entities:
        - Approval
      abis:
        - name: Token
          file: Token/Token.json
      eventHandlers:
        - event: Approval(indexed address,indexed address,uint256)
          handler: handleApproval
      file: Token/Token.wasm
templates:
  - kind: ethereum
    name: Pair
    network: localhost
    source:
      abi: Token
    mapping:
      kind: ethereum/events
      apiVersion: 0.0.7
      language: wasm/assemblyscript
      entities: []
      abis:
        - name: Token
          file: Token/Token.json
      file: templates/Pair/Pair.wasm
`;

/** Hands out Qm-shaped ids in order and keeps what it was given. */
function recordingAdder(): IpfsAdder & { added: { name: string | undefined; text: string }[] } {
  const added: { name: string | undefined; text: string }[] = [];
  return {
    added,
    async add(bytes, name) {
      added.push({ name, text: new TextDecoder().decode(bytes) });
      return `Qm${String(added.length).padStart(44, "x")}`;
    },
  };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "upload-build-"));
  await mkdir(join(dir, "Token"));
  await mkdir(join(dir, "templates", "Pair"), { recursive: true });
  await writeFile(join(dir, "subgraph.yaml"), MANIFEST);
  await writeFile(join(dir, "schema.graphql"), "type Approval @entity { id: ID! }\n");
  await writeFile(join(dir, "Token", "Token.json"), "[]");
  await writeFile(join(dir, "Token", "Token.wasm"), "wasm-1");
  await writeFile(join(dir, "templates", "Pair", "Pair.wasm"), "wasm-2");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("uploadBuild", () => {
  it("adds each named file once, links it, and adds the manifest last", async () => {
    const ipfs = recordingAdder();
    const hash = await uploadBuild(join(dir, "subgraph.yaml"), ipfs, { projectDir: projectRoot });
    expect(hash).toBe(`Qm${"5".padStart(44, "x")}`);
    expect(ipfs.added.map((a) => a.name).sort()).toEqual(["Token/Token.json", "Token/Token.wasm", "schema.graphql", "subgraph.yaml", "templates/Pair/Pair.wasm"]);
    expect(ipfs.added.at(-1)?.name).toBe("subgraph.yaml");
    const idOf = (name: string) => `/ipfs/Qm${String(ipfs.added.findIndex((a) => a.name === name) + 1).padStart(44, "x")}`;
    const uploaded = parse(ipfs.added.at(-1)?.text ?? "") as {
      schema: { file: unknown };
      dataSources: { source: { address: unknown; startBlock: unknown }; mapping: { file: unknown; abis: { file: unknown }[] } }[];
      templates: { mapping: { file: unknown; abis: { file: unknown }[] } }[];
    };
    expect(uploaded.schema.file).toEqual({ "/": idOf("schema.graphql") });
    expect(uploaded.dataSources[0]?.mapping.file).toEqual({ "/": idOf("Token/Token.wasm") });
    expect(uploaded.dataSources[0]?.mapping.abis[0]?.file).toEqual({ "/": idOf("Token/Token.json") });
    expect(uploaded.templates[0]?.mapping.abis[0]?.file).toEqual({ "/": idOf("Token/Token.json") });
    expect(uploaded.templates[0]?.mapping.file).toEqual({ "/": idOf("templates/Pair/Pair.wasm") });
    // Values keep their types: the address stays a string, the start block a number.
    expect(uploaded.dataSources[0]?.source).toEqual({ abi: "Token", address: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", startBlock: 2 });
  });

  it("writes the manifest as graph-cli 0.98's js-yaml 4 dump: keys sorted, single quotes, no anchors", async () => {
    const ipfs = recordingAdder();
    await uploadBuild(join(dir, "subgraph.yaml"), ipfs, { projectDir: projectRoot });
    const text = ipfs.added.at(-1)?.text ?? "";
    expect(text.split("\n").filter((l) => /^\S/.test(l))).toEqual(["dataSources:", "schema:", "specVersion: 0.0.5", "templates:"]);
    expect(text).toContain("address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'");
    expect(text).not.toMatch(/[&*]ref_/);
  });

  it("writes it with graph-cli 0.87's own js-yaml 3 when that release is the one named", async () => {
    const ipfs = recordingAdder();
    await uploadBuild(join(dir, "subgraph.yaml"), ipfs, { graphCliBin: join(projectRoot, "node_modules", "graph-cli-0.87", "bin", "run") });
    expect(parse(ipfs.added.at(-1)?.text ?? "")).toMatchObject({ specVersion: "0.0.5", schema: { file: { "/": expect.stringMatching(/^\/ipfs\/Qm/) as unknown } } });
  });

  it("fails with UploadBuildError when a named file is not in the build", async () => {
    const broken = await mkdtemp(join(tmpdir(), "upload-build-broken-"));
    await writeFile(join(broken, "subgraph.yaml"), MANIFEST);
    await writeFile(join(broken, "schema.graphql"), "type Approval @entity { id: ID! }\n");
    const error = await uploadBuild(join(broken, "subgraph.yaml"), recordingAdder(), { projectDir: projectRoot }).catch((e: unknown) => e);
    await rm(broken, { recursive: true, force: true });
    expect(error).toBeInstanceOf(UploadBuildError);
    expect((error as Error).message).toMatch(/^the build's manifest names Token\/Token\.(json|wasm), which is not in /);
  });

  it("fails with UploadBuildError when there is no build manifest", async () => {
    await expect(uploadBuild(join(dir, "missing", "subgraph.yaml"), recordingAdder(), { projectDir: projectRoot })).rejects.toThrow(UploadBuildError);
  });
});
