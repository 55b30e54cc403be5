import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { createIpfsStore } from "../ipfs/ipfsStore.js";
import type { IpfsStore } from "../ipfs/types.js";
import { publishFixture, wasmExporting } from "./_test/fixtures.js";
import { DeployError } from "./errors.js";
import { loadDeployment } from "./loadDeployment.js";

const SOURCE_SCHEMA = `
type Approval @entity(immutable: true) { id: Bytes! owner: Bytes! value: BigInt! }
type Holder @entity { id: Bytes! total: BigInt! }
interface Named { id: ID! name: String! }
type Point @entity(timeseries: true) { id: Int8! timestamp: Timestamp! value: BigInt! }
type Stats @aggregation(intervals: ["hour"], source: "Point") { id: Int8! timestamp: Timestamp! sum: BigInt! @aggregate(fn: "sum", arg: "value") }
`;

const enc = new TextEncoder();
const link = (cid: string) => ({ "/": `/ipfs/${cid}` });

/** A source deployment (the ethereum fixture, specVersion and schema set) in `ipfs`; answers its hash. */
async function publishSource(ipfs: IpfsStore, specVersion = "1.3.0", extra: (m: Record<string, any>) => void = () => undefined): Promise<string> {
  const schema = await ipfs.add(enc.encode(SOURCE_SCHEMA));
  return publishFixture(ipfs, {
    edit(m) {
      m.specVersion = specVersion;
      m.schema = { file: link(schema) };
      extra(m);
    },
  });
}

/** A composed manifest over `sources` (one data source each, handlers for `entities`). */
async function publishComposed(ipfs: IpfsStore, sources: string[], options: { entities?: string[]; specVersion?: string; edit?: (m: Record<string, any>) => void } = {}): Promise<string> {
  const schema = await ipfs.add(enc.encode("type Mirror @entity(immutable: true) { id: Bytes! value: BigInt! }"));
  const wasm = await ipfs.add(wasmExporting(["handleApproval"]));
  const entities = options.entities ?? ["Approval"];
  const manifest: Record<string, any> = {
    specVersion: options.specVersion ?? "1.3.0",
    schema: { file: link(schema) },
    dataSources: sources.map((source, i) => ({
      kind: "subgraph",
      name: `Source${i}`,
      network: "localhost",
      source: { address: source, startBlock: 3 },
      mapping: { apiVersion: "0.0.9", language: "wasm/assemblyscript", entities: ["Mirror"], handlers: entities.map((entity) => ({ handler: "handleApproval", entity })), file: link(wasm) },
    })),
  };
  options.edit?.(manifest);
  return ipfs.add(enc.encode(stringify(manifest)));
}

async function messageOf(ipfs: IpfsStore, hash: string): Promise<string> {
  const error = await loadDeployment(ipfs, hash).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeployError);
  return (error as DeployError).message;
}

describe("subgraph data sources (composition)", () => {
  it("loads a composed manifest: source, start block, entity handlers, the source's schema", async () => {
    const ipfs = await createIpfsStore();
    const source = await publishSource(ipfs);
    const loaded = await loadDeployment(ipfs, await publishComposed(ipfs, [source]));
    expect(loaded.dataSources).toEqual([]);
    expect(loaded.network).toBe("localhost");
    expect(loaded.subgraphDataSources).toHaveLength(1);
    expect(loaded.subgraphDataSources[0]).toMatchObject({ kind: "subgraph", name: "Source0", source, startBlock: 3, apiVersion: "0.0.9", handlers: [{ handler: "handleApproval", entity: "Approval" }] });
    expect(loaded.subgraphDataSources[0]?.sourceSchemaSdl).toContain("type Approval");
  });

  it("accepts a timeseries of the source (immutable) as a handler's entity", async () => {
    const ipfs = await createIpfsStore();
    const loaded = await loadDeployment(ipfs, await publishComposed(ipfs, [await publishSource(ipfs)], { entities: ["Point"] }));
    expect(loaded.subgraphDataSources[0]?.handlers[0]?.entity).toBe("Point");
  });

  it("refuses what graph-node refuses, in its words", async () => {
    const ipfs = await createIpfsStore();
    const source = await publishSource(ipfs);
    const resolve = "subgraph resolve error: resolve error: ";
    expect(await messageOf(ipfs, await publishComposed(ipfs, [source], { entities: ["Holder"] }))).toBe(`${resolve}Entity Holder is not immutable and cannot be used as a mapping entity`);
    expect(await messageOf(ipfs, await publishComposed(ipfs, [source], { entities: ["Nope"] }))).toBe(`${resolve}Entity Nope not found in source manifest`);
    expect(await messageOf(ipfs, await publishComposed(ipfs, [source], { entities: ["Named"] }))).toBe(`${resolve}Entity Named is an interface and cannot be used as a mapping entity`);
    expect(await messageOf(ipfs, await publishComposed(ipfs, [source], { entities: ["Stats"] }))).toBe(`${resolve}Entity Stats is an aggregation and cannot be used as a mapping entity`);
    const old = await publishSource(ipfs, "1.2.0");
    expect(await messageOf(ipfs, await publishComposed(ipfs, [old]))).toBe(`${resolve}Source subgraph [${old}] manifest spec version 1.2.0 is not supported, minimum supported version is 1.3.0`);
    const grafted = await publishSource(ipfs, "1.3.0", (m) => {
      m.features = ["grafting"];
      m.graft = { base: old, block: 1 };
    });
    expect(await messageOf(ipfs, await publishComposed(ipfs, [grafted]))).toBe(
      `${resolve}Subgraph with a spec version 1.2.0 is not supported for a subgraph source, minimum supported version is 1.3.0. Graft chain: ${grafted} -> ${old}`,
    );
    const composed = await publishComposed(ipfs, [source]);
    expect(await messageOf(ipfs, await publishComposed(ipfs, [composed]))).toBe(`${resolve}Nested subgraph data sources [Source0] are not supported.`);
    expect(await messageOf(ipfs, await publishComposed(ipfs, [source, source]))).toBe(`${resolve}data source subgraph is invalid: Multiple subgraph datasources cannot use the same source subgraph ${source}`);
    expect(await messageOf(ipfs, await publishComposed(ipfs, [source], { specVersion: "1.2.0" }))).toBe(`${resolve}data source subgraph is invalid: Subgraph datasources are not supported prior to spec version 1.3.0`);
    const sources = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => publishSource(ipfs, `1.3.${n}`)));
    expect(await messageOf(ipfs, await publishComposed(ipfs, sources))).toBe(`${resolve}data source subgraph is invalid: Cannot have more than 5 subgraph datasources`);
    const sourceManifest = parse(new TextDecoder().decode((await ipfs.cat(`/ipfs/${source}`))!)) as Record<string, any>;
    const beside = await publishComposed(ipfs, [source], { edit: (m) => m.dataSources.push({ ...sourceManifest.dataSources[0], mapping: { ...sourceManifest.dataSources[0].mapping, apiVersion: "0.0.9" } }) });
    expect(await messageOf(ipfs, beside)).toBe(`${resolve}data source subgraph is invalid: Subgraph datasources cannot be used alongside onchain datasources`);
    expect(await messageOf(ipfs, await publishComposed(ipfs, ["not/a-hash"]))).toMatch(/^subgraph resolve error: parse error: dataSources\[0\]\.source\.address: invalid value/);
    const missing = "QmWATWQ7VVPP2EFGu71UkfnqhYXDYH566qy47CnJDgvs8u";
    expect(await messageOf(ipfs, await publishComposed(ipfs, [missing]))).toMatch(new RegExp(`^${resolve}Failed to resolve source subgraph \\[${missing}\\] manifest: `));
  });
});
