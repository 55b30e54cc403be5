// When `npm run deploy` may take build/ as it is: a build for the network being deployed, newer than
// each of its sources; every other case says why, so the deploy compiles instead.
import { mkdtemp, mkdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { currentBuild, formatBuildTime } from "./currentBuild.js";

const SOURCE_MANIFEST = `specVersion: 0.0.5
schema:
  file: ./schema.graphql
dataSources:
  - kind: ethereum
    name: Token
    network: localhost
    mapping:
      abis:
        - name: Token
          file: ./abis/Token.json
      file: ./src/mapping.ts
`;
const built = (network: string, templateNetwork = network) =>
  `dataSources:\n  - kind: ethereum\n    name: Token\n    network: ${network}\ntemplates:\n  - kind: ethereum\n    name: Pair\n    network: ${templateNetwork}\n`;

let dir: string;
const past = new Date(Date.now() - 60_000);
const buildTime = new Date(Date.now() - 30_000);

/** A project whose sources are a minute old and whose build is half a minute old. */
async function project(buildManifest: string | null): Promise<void> {
  await mkdir(join(dir, "src", "lib"), { recursive: true });
  await mkdir(join(dir, "abis"));
  const files: [string, string][] = [["subgraph.yaml", SOURCE_MANIFEST], ["schema.graphql", "type T @entity { id: ID! }"], ["networks.json", "{}"], ["src/mapping.ts", ""], ["src/lib/util.ts", ""], ["abis/Token.json", "[]"]];
  for (const [path, text] of files) await writeFile(join(dir, path), text);
  for (const path of [...files.map(([p]) => p), "src/lib", "src", "abis"]) await utimes(join(dir, path), past, past);
  if (buildManifest !== null) {
    await mkdir(join(dir, "build"));
    await writeFile(join(dir, "build", "subgraph.yaml"), buildManifest);
    await utimes(join(dir, "build", "subgraph.yaml"), buildTime, buildTime);
  }
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "current-build-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("currentBuild", () => {
  it("takes a build for the network that is newer than every source", async () => {
    await project(built("localhost"));
    const verdict = await currentBuild(dir, "localhost");
    expect(verdict).toEqual({ current: true, builtAt: buildTime });
  });

  it("says there is no build when build/subgraph.yaml is missing", async () => {
    await project(null);
    expect(await currentBuild(dir, "localhost")).toEqual({ current: false, reason: "there is no build in build/" });
  });

  it("refuses a build for another network, in a data source or a template", async () => {
    await project(built("sepolia"));
    expect(await currentBuild(dir, "localhost")).toEqual({ current: false, reason: "build/ was built for network sepolia, not localhost" });
    await writeFile(join(dir, "build", "subgraph.yaml"), built("localhost", "mainnet"));
    await utimes(join(dir, "build", "subgraph.yaml"), buildTime, buildTime);
    expect(await currentBuild(dir, "localhost")).toEqual({ current: false, reason: "build/ was built for network mainnet, not localhost" });
  });

  it.each(["subgraph.yaml", "schema.graphql", "networks.json", "src/lib/util.ts", "abis/Token.json", "src"])("refuses a build older than %s", async (source) => {
    await project(built("localhost"));
    await utimes(join(dir, source), new Date(), new Date());
    expect(await currentBuild(dir, "localhost")).toEqual({ current: false, reason: `${source} changed after the build in build/` });
  });

  it("counts a file the source manifest names outside src/ and abis/", async () => {
    await project(built("localhost"));
    await writeFile(join(dir, "subgraph.yaml"), SOURCE_MANIFEST.replace("./abis/Token.json", "./vendor/Token.json"));
    await utimes(join(dir, "subgraph.yaml"), past, past);
    await mkdir(join(dir, "vendor"));
    await writeFile(join(dir, "vendor", "Token.json"), "[]");
    expect(await currentBuild(dir, "localhost")).toEqual({ current: false, reason: "vendor/Token.json changed after the build in build/" });
  });

  it("refuses a build manifest without data sources, or not YAML", async () => {
    await project("specVersion: 0.0.5\n");
    expect(await currentBuild(dir, "localhost")).toEqual({ current: false, reason: "build/subgraph.yaml has no data source" });
    await writeFile(join(dir, "build", "subgraph.yaml"), "a: [\n");
    expect(await currentBuild(dir, "localhost")).toEqual({ current: false, reason: "build/subgraph.yaml is not YAML" });
  });

  it("formats the build time as local date and time", () => {
    expect(formatBuildTime(new Date(2025, 11, 1, 9, 5, 3))).toBe("2025-12-01 09:05:03");
  });
});
