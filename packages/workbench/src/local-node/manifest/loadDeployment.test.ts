import { id as keccakUtf8 } from "ethers";
import { describe, expect, it } from "vitest";
import { createIpfsStore } from "../ipfs/ipfsStore.js";
import { APPROVAL_SIGNATURE, APPROVAL_TOPIC0, FIXTURE_SCHEMA, publishFixture, wasmExporting } from "./_test/fixtures.js";
import { findAbiEvent, topic0Of } from "./abiEvents.js";
import { DeployError } from "./errors.js";
import { loadDeployment } from "./loadDeployment.js";

async function loadError(edit: Parameters<typeof publishFixture>[1]): Promise<DeployError> {
  const ipfs = await createIpfsStore();
  const hash = await publishFixture(ipfs, edit);
  const error = await loadDeployment(ipfs, hash).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeployError);
  return error as DeployError;
}

describe("loadDeployment", () => {
  it("loads a graph-cli style deployment: links resolved, topic0 computed, wasm compiled", async () => {
    const ipfs = await createIpfsStore();
    const hash = await publishFixture(ipfs);
    const loaded = await loadDeployment(ipfs, hash);
    expect(loaded.id).toBe(hash);
    expect(loaded.network).toBe("localhost");
    expect(loaded.specVersion).toBe("0.0.5");
    expect(loaded.schema.entities.get("ApprovalQuery")?.immutable).toBe(true);
    expect(loaded.schemaSdl).toContain("type ApprovalQuery");
    expect(loaded.templates).toEqual([]);
    const [ds] = loaded.dataSources;
    expect(ds).toMatchObject({
      kind: "ethereum",
      name: "ApprovalToken",
      address: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
      startBlock: 2,
      endBlock: null,
      apiVersion: "0.0.7",
      abiName: "ApprovalToken",
      entities: ["ApprovalQuery"],
    });
    expect(ds?.eventHandlers).toEqual([
      {
        event: APPROVAL_SIGNATURE,
        handler: "ApprovalHandler",
        topic0: APPROVAL_TOPIC0,
        topic1: null,
        topic2: null,
        topic3: null,
        receipt: false,
        abiEvent: expect.objectContaining({ name: "Approval", type: "event" }),
      },
    ]);
    expect(WebAssembly.Module.exports(ds!.wasmModule).map((e) => e.name)).toEqual(["ApprovalHandler"]);
    expect(ds?.abis.ApprovalToken).toHaveLength(3);
  });

  it("reads an unquoted hex address as the address, as graph-node's serde_yaml does (gnd's build writes it so)", async () => {
    const ipfs = await createIpfsStore();
    const quoted = new TextDecoder().decode((await ipfs.cat(`/ipfs/${await publishFixture(ipfs)}`))!);
    const unquoted = quoted.replace(/address: "?(0x[0-9a-fA-F]{40})"?/, "address: $1");
    expect(unquoted).toMatch(/address: 0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512\n/);
    const loaded = await loadDeployment(ipfs, await ipfs.add(new TextEncoder().encode(unquoted)));
    expect(loaded.dataSources[0]?.address).toBe("0xe7f1725e7734ce288f8367e1bb143e90bb3f0512");
  });

  it("reads receipt flags, topic filters and an explicit topic0", async () => {
    const ipfs = await createIpfsStore();
    const hash = await publishFixture(ipfs, {
      edit(m) {
        // Topic filters need specVersion 1.2.0.
        m.specVersion = "1.2.0";
        m.dataSources[0].mapping.eventHandlers = [
          { event: APPROVAL_SIGNATURE, handler: "ApprovalHandler", receipt: true, topic1: ["0xAB"] },
          { event: "Transfer(address,address,uint256)", handler: "ApprovalHandler", topic0: `0x${"1".repeat(64)}` },
        ];
      },
    });
    const [approval, transfer] = (await loadDeployment(ipfs, hash)).dataSources[0]!.eventHandlers;
    expect(approval).toMatchObject({ receipt: true, topic1: [`0x${"0".repeat(62)}ab`], topic0: APPROVAL_TOPIC0 });
    // A signature without `indexed` matches the only Transfer event of the ABI.
    expect(transfer).toMatchObject({ receipt: false, topic0: `0x${"1".repeat(64)}` });
  });

  it("rejects an unknown IPFS hash", async () => {
    const ipfs = await createIpfsStore();
    const error = await loadDeployment(ipfs, "QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH").catch((e: unknown) => e as DeployError);
    expect(error).toBeInstanceOf(DeployError);
    expect(error).toMatchObject({ code: "IPFS_NOT_FOUND" });
    expect((error as DeployError).message).toBe(
      "subgraph resolve error: resolve error: failed to resolve manifest: IPFS content from 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH' is not available: not in this node's IPFS store",
    );
  });

  it("rejects a hash that is not a CID", async () => {
    const ipfs = await createIpfsStore();
    await expect(loadDeployment(ipfs, "QmNotAHash")).rejects.toMatchObject({ code: "INVALID_HASH" });
  });

  it("rejects a manifest that does not parse, with the YAML error", async () => {
    const error = await loadError({ rawManifest: "specVersion: 0.0.5\nschema: [unclosed\n" });
    expect(error.code).toBe("PARSE");
    expect(error.message).toMatch(/^subgraph resolve error: parse error: /);
  });

  it("rejects a manifest with a missing field, naming its path", async () => {
    const error = await loadError({
      edit(m) {
        delete m.dataSources[0].mapping.file;
      },
    });
    expect(error.message).toBe("subgraph resolve error: parse error: dataSources[0].mapping: missing field `file`");
  });

  it("rejects a missing handler export and an event the ABI lacks, reporting both", async () => {
    const error = await loadError({
      exports: ["SomethingElse"],
      edit(m) {
        m.dataSources[0].mapping.eventHandlers.push({ event: "Burn(uint256)", handler: "SomethingElse" });
      },
    });
    expect(error.code).toBe("VALIDATION");
    expect(error.message).toMatch(/^subgraph validation error: \[data source ApprovalToken is invalid: event handler `ApprovalHandler` for `Approval\(indexed address,indexed address,uint256\)` is not exported by the mapping Qm\w+; data source ApprovalToken is invalid: event `Burn\(uint256\)` of handler `SomethingElse` not found in ABI `ApprovalToken`\]$/);
  });

  it("rejects versions outside what the node runs", async () => {
    expect(
      (
        await loadError({
          edit(m) {
            m.specVersion = "9.0.0";
          },
        })
      ).message,
    ).toMatch(/only supports manifest spec versions between 0\.0\.2 and 1\.5\.0, but subgraph `Qm\w+` uses `9\.0\.0`$/);
    expect(
      (
        await loadError({
          edit(m) {
            m.dataSources[0].mapping.apiVersion = "0.0.10";
          },
        })
      ).message,
    ).toBe("subgraph resolve error: resolve error: The maximum supported mapping API version of this indexer is 0.0.9, but `0.0.10` was found");
  });

  it("takes @fulltext only when allowed (graph-node's GRAPH_ALLOW_NON_DETERMINISTIC_FULLTEXT_SEARCH) and declared as a feature", async () => {
    const ipfs = await createIpfsStore();
    const sdl = `${FIXTURE_SCHEMA}\ntype Note @entity(immutable: true) { id: ID! text: String! }\ntype _Schema_ @fulltext(name: "noteSearch", language: fr, algorithm: proximityRank, include: [{ entity: "Note", fields: [{ name: "text" }] }])\n`;
    const schema = await ipfs.add(new TextEncoder().encode(sdl));
    const publish = (features: string[]) => publishFixture(ipfs, { edit: (m) => ((m.schema = { file: { "/": `/ipfs/${schema}` } }), (m.features = features)) });
    const refused = await loadDeployment(ipfs, await publish(["fullTextSearch"])).catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/^Fulltext search is not yet deterministic: .*GRAPH_ALLOW_NON_DETERMINISTIC_FULLTEXT_SEARCH=true/);
    const undeclared = await loadDeployment(ipfs, await publish([]), { allowFulltextSearch: true }).catch((e: unknown) => e);
    expect((undeclared as Error).message).toBe("The feature `fullTextSearch` is used by the subgraph but it is not declared in the manifest.");
    const loaded = await loadDeployment(ipfs, await publish(["fullTextSearch"]), { allowFulltextSearch: true });
    expect(loaded.schema.fulltexts).toEqual([{ name: "noteSearch", language: "fr", config: "french", algorithm: "proximityRank", entity: "Note", fields: ["text"] }]);
  });

  it("takes aggregations from specVersion 1.1.0, as graph-node", async () => {
    const ipfs = await createIpfsStore();
    const sdl = `${FIXTURE_SCHEMA}\ntype Data @entity(timeseries: true) { id: Int8! timestamp: Timestamp! price: BigDecimal! }\ntype Stats @aggregation(intervals: ["hour"], source: "Data") { id: Int8! timestamp: Timestamp! sum: BigDecimal! @aggregate(fn: "sum", arg: "price") }\n`;
    const schema = await ipfs.add(new TextEncoder().encode(sdl));
    const publish = (specVersion: string) => publishFixture(ipfs, { edit: (m) => ((m.schema = { file: { "/": `/ipfs/${schema}` } }), (m.specVersion = specVersion)) });
    const refused = await loadDeployment(ipfs, await publish("1.0.0")).catch((e: unknown) => e);
    expect((refused as Error).message).toBe("subgraph validation error: [schema validation failed: [Aggregations are not supported with spec version 1.0.0; please migrate the subgraph to the latest version]]");
    expect((await loadDeployment(ipfs, await publish("1.1.0"))).schema.aggregations.map((a) => a.name)).toEqual(["Stats"]);
  });

  it("reads a graft, which needs the `grafting` feature declared", async () => {
    const ipfs = await createIpfsStore();
    const publish = (features: string[]) => publishFixture(ipfs, { edit: (m) => ((m.graft = { base: "QmBase", block: 7 }), (m.features = features)) });
    const undeclared = await loadDeployment(ipfs, await publish([])).catch((e: unknown) => e);
    expect((undeclared as Error).message).toBe("The feature `grafting` is used by the subgraph but it is not declared in the manifest.");
    expect((await loadDeployment(ipfs, await publish(["grafting"]))).graft).toEqual({ base: "QmBase", block: 7 });
    const badBlock = await loadDeployment(ipfs, await publishFixture(ipfs, { edit: (m) => ((m.graft = { base: "QmBase", block: -1 }), (m.features = ["grafting"])) })).catch((e: unknown) => e);
    expect((badBlock as Error).message).toMatch(/graft\.block.*expected a block number/);
  });

  it("rejects features the manifest's specVersion predates, as graph-node", async () => {
    const once = await loadError({
      edit(m) {
        m.dataSources[0].mapping.blockHandlers = [{ handler: "ApprovalHandler", filter: { kind: "once" } }];
      },
    });
    expect(once.message).toMatch(/uses spec version 0\.0\.5, but data source `ApprovalToken` requires at least version 0\.0\.8$/);
    const end = await loadError({
      edit(m) {
        m.dataSources[0].source.endBlock = 10;
      },
    });
    expect(end.message).toBe("subgraph resolve error: resolve error: Defining `endBlock` in the manifest is not supported prior to 0.0.9");
    const hints = await loadError({
      edit(m) {
        m.specVersion = "0.0.9";
        m.indexerHints = { prune: "auto" };
      },
    });
    expect(hints.message).toBe("subgraph resolve error: resolve error: `indexerHints` are not supported prior to 1.0.0");
  });

  it("rejects several networks, a call handler for a function the ABI lacks, duplicated block handlers, bad addresses and wrong kinds", async () => {
    const error = await loadError({
      edit(m) {
        const ds = m.dataSources[0];
        ds.kind = "near";
        ds.source.address = "0x1234";
        ds.mapping.blockHandlers = [{ handler: "ApprovalHandler" }, { handler: "ApprovalHandler" }];
        ds.mapping.callHandlers = [{ function: "burn(uint256)", handler: "ApprovalHandler" }];
      },
    });
    expect(error.details.errors).toEqual([
      "data source ApprovalToken is invalid: data source has invalid `kind`, expected `ethereum` but found near",
      "data source ApprovalToken is invalid: data source has duplicated block handlers",
      'data source ApprovalToken is invalid: Function with the signature "burn(uint256)" not found in contract "ApprovalToken" of data source "ApprovalToken"',
      "data source ApprovalToken is invalid: source.address `0x1234` is not a 20-byte hex address",
    ]);
    const networks = await loadError({
      edit(m) {
        m.dataSources.push({ ...m.dataSources[0], name: "Other", network: "mainnet" });
      },
    });
    expect(networks.message).toBe("subgraph validation error: [subgraph cannot index data from different Ethereum networks]");
  });

  it("rejects a mapping that is not WebAssembly", async () => {
    const ipfs = await createIpfsStore();
    const notWasm = await ipfs.add(new TextEncoder().encode("not wasm"));
    const hash = await publishFixture(ipfs, {
      edit(m) {
        m.dataSources[0].mapping.file = { "/": `/ipfs/${notWasm}` };
      },
    });
    await expect(loadDeployment(ipfs, hash)).rejects.toMatchObject({ code: "WASM" });
  });
});

describe("ABI event matching", () => {
  const abi = [
    { type: "event", name: "Approval", inputs: [{ name: "o", type: "address", indexed: true }, { name: "s", type: "address", indexed: true }, { name: "v", type: "uint256" }] },
    { type: "event", name: "Swap", inputs: [{ name: "t", type: "tuple[]", components: [{ name: "a", type: "uint8" }, { name: "b", type: "bytes32" }] }] },
  ];

  it("computes topic0 as keccak of the signature without `indexed`", () => {
    expect(topic0Of(APPROVAL_SIGNATURE)).toBe(keccakUtf8("Approval(address,address,uint256)"));
    expect(topic0Of(APPROVAL_SIGNATURE)).toBe(APPROVAL_TOPIC0);
  });

  it("matches with or without `indexed`, expands tuples, and rejects wrong signatures", () => {
    expect(findAbiEvent(abi, APPROVAL_SIGNATURE)?.name).toBe("Approval");
    expect(findAbiEvent(abi, "Approval(address,address,uint256)")?.name).toBe("Approval");
    expect(findAbiEvent(abi, "Approval(indexed address,address,uint256)")).toBeNull();
    expect(findAbiEvent(abi, "Swap((uint8,bytes32)[])")?.name).toBe("Swap");
    expect(findAbiEvent(abi, "Approval(address,uint256)")).toBeNull();
  });

  it("builds wasm fixtures that export exactly the given names", async () => {
    const module = await WebAssembly.compile(wasmExporting(["a", "handleX"]) as Uint8Array<ArrayBuffer>);
    expect(WebAssembly.Module.exports(module).map((e) => e.name)).toEqual(["a", "handleX"]);
  });
  it("reads `features`, refusing a name graph-node does not know", async () => {
    const ipfs = await createIpfsStore();
    const hash = await publishFixture(ipfs, {
      edit(m) {
        m.features = ["nonFatalErrors", "nonDeterministicIpfs"];
      },
    });
    expect((await loadDeployment(ipfs, hash)).features).toEqual(["nonFatalErrors", "ipfsOnEthereumContracts"]);
    const error = await loadError({
      edit(m) {
        m.features = ["nonFatalErrors", "timeTravel"];
      },
    });
    expect(error.message).toMatch(/^subgraph resolve error: parse error: features\[1\]: unknown variant `timeTravel`, expected one of `nonFatalErrors`, /);
  });

  describe("file data source templates", () => {
    const fileTemplate = (kind: string, link: { "/": string }) => ({
      kind,
      name: "Metadata",
      mapping: { apiVersion: "0.0.7", language: "wasm/assemblyscript", entities: ["ApprovalQuery", "NotInTheSchema"], handler: "handleFile", file: link },
    });

    it("loads a file/ipfs template: its handler, and the entities the schema has (graph-node drops the others)", async () => {
      const ipfs = await createIpfsStore();
      const hash = await publishFixture(ipfs, {
        edit(m, cids) {
          m.specVersion = "0.0.7";
          m.templates = [fileTemplate("file/ipfs", { "/": `/ipfs/${cids.wasm}` })];
        },
      });
      const loaded = await loadDeployment(ipfs, hash);
      expect(loaded.templates).toEqual([]);
      expect(loaded.fileTemplates).toMatchObject([{ kind: "file/ipfs", name: "Metadata", network: "localhost", apiVersion: "0.0.7", entities: ["ApprovalQuery"], handler: "handleFile" }]);
    });

    it("refuses file/arweave (no gateway here), an unknown file kind, and a file data source outside templates", async () => {
      const arweave = await loadError({
        edit(m, cids) {
          m.specVersion = "0.0.7";
          m.templates = [fileTemplate("file/arweave", { "/": `/ipfs/${cids.wasm}` })];
        },
      });
      expect(arweave.message).toBe("subgraph validation error: [data source Metadata is invalid: file/arweave data sources are not supported by this node: it has no Arweave gateway]");
      const unknown = await loadError({
        edit(m, cids) {
          m.specVersion = "0.0.7";
          m.templates = [fileTemplate("file/s3", { "/": `/ipfs/${cids.wasm}` })];
        },
      });
      expect(unknown.message).toBe("subgraph validation error: [data source Metadata is invalid: unsupported offchain datasource kind: file/s3, expected one of: file/ipfs,file/arweave]");
      const outside = await loadError({
        edit(m, cids) {
          m.specVersion = "0.0.7";
          m.dataSources.push({ ...fileTemplate("file/ipfs", { "/": `/ipfs/${cids.wasm}` }), source: { file: { "/": `/ipfs/${cids.abi}` } } });
        },
      });
      expect(outside.message).toBe("subgraph validation error: [data source Metadata is invalid: a file data source (kind file/ipfs) must be a template, created by a handler with the file's CID]");
    });
  });
});
