// The import table links exactly the host functions graph-node links (runtime/wasm/src/module/instance.rs).
import { describe, expect, it } from "vitest";
import { hostFunctions, linkImports } from "./imports.js";
import { HostLinkError } from "./errors.js";
import type { HostEnv } from "./host/env.js";

const GRAPH_NODE_IMPORTS = `abort arweave.transactionData bigDecimal.dividedBy bigDecimal.equals bigDecimal.fromString bigDecimal.minus
bigDecimal.plus bigDecimal.times bigDecimal.toString bigInt.bitAnd bigInt.bitOr bigInt.dividedBy bigInt.dividedByDecimal
bigInt.fromString bigInt.leftShift bigInt.minus bigInt.mod bigInt.plus bigInt.pow bigInt.rightShift bigInt.times box.profile
crypto.keccak256 dataSource.address dataSource.context dataSource.create dataSource.createWithContext dataSource.network
ens.nameByHash ethereum.call ethereum.decode ethereum.encode ethereum.getBalance ethereum.hasCode ipfs.cat ipfs.getBlock
ipfs.map json.fromBytes json.toBigInt json.toF64 json.toI64 json.toU64 json.try_fromBytes log.log store.get
store.get_in_block store.loadRelated store.remove store.set typeConversion.bigIntToHex typeConversion.bigIntToString
typeConversion.bytesToBase58 typeConversion.bytesToHex typeConversion.bytesToString typeConversion.stringToH160
yaml.fromBytes yaml.try_fromBytes`.split(/\s+/);

const env = { codec: {}, store: {}, options: { dataSource: {} }, block: () => null, handler: () => null, exports: () => ({}) } as unknown as HostEnv;

describe("the import table", () => {
  it("has every host function graph-node links, and nothing else", () => {
    expect(Object.keys(hostFunctions(env)).sort()).toEqual([...GRAPH_NODE_IMPORTS].sort());
  });

  it("matches imports by name whatever the module, and names unknown ones", () => {
    // (module "conversion" "typeConversion.bytesToHex") and (module "whatever" "nope"), both () -> ().
    const wasm = Uint8Array.from([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
      0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
      0x02, 0x38, 0x02,
      0x0a, ...Buffer.from("conversion"), 0x19, ...Buffer.from("typeConversion.bytesToHex"), 0x00, 0x00,
      0x08, ...Buffer.from("whatever"), 0x04, ...Buffer.from("nope"), 0x00, 0x00,
    ]);
    const module = new WebAssembly.Module(wasm);
    expect(() => linkImports(module, hostFunctions(env))).toThrow(new HostLinkError("unknown import: `whatever::nope` has not been defined").message);
    const linked = linkImports(module, { ...hostFunctions(env), nope: () => 1 });
    expect(Object.keys(linked["conversion"]!)).toEqual(["typeConversion.bytesToHex"]);
    expect(Object.keys(linked["whatever"]!)).toEqual(["nope"]);
  });
});
