// Builds small deployments in an IPFS store the way graph-cli uploads them: schema, ABI and mapping
// first, then a manifest whose file fields are `{'/': '/ipfs/<cid>'}` links.
import { readFileSync } from "node:fs";
import { stringify } from "yaml";
import type { IpfsStore } from "../../ipfs/types.js";
import { encodeUleb128 } from "../../../lib/leb128.js";

const here = new URL(".", import.meta.url);
export const FIXTURE_SCHEMA = readFileSync(new URL("schema.graphql", here), "utf8");
export const FIXTURE_ABI = readFileSync(new URL("erc20Events.abi.json", here), "utf8");
export const APPROVAL_SIGNATURE = "Approval(indexed address,indexed address,uint256)";
export const APPROVAL_TOPIC0 = "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925";

function section(id: number, content: number[]): number[] {
  return [id, ...encodeUleb128(content.length), ...content];
}

/** A minimal valid wasm module exporting `(i32) -> ()` functions with these names (and nothing else). */
export function wasmExporting(names: string[]): Uint8Array {
  const enc = new TextEncoder();
  const types = [1, 0x60, 1, 0x7f, 0];
  const funcs = [...encodeUleb128(names.length), ...names.map(() => 0)];
  const exports = [...encodeUleb128(names.length), ...names.flatMap((name, i) => [...encodeUleb128(enc.encode(name).length), ...enc.encode(name), 0x00, ...encodeUleb128(i)])];
  const code = [...encodeUleb128(names.length), ...names.flatMap(() => [2, 0, 0x0b])];
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...section(1, types), ...section(3, funcs), ...section(7, exports), ...section(10, code)]);
}

export interface FixtureOptions {
  /** Functions the mapping exports (default: ApprovalHandler). */
  exports?: string[];
  /** Replace parts of the manifest object before it is written. */
  edit?(manifest: Record<string, any>, links: { schema: string; abi: string; wasm: string }): void;
  /** Write this text as the manifest instead (for unparsable manifests). */
  rawManifest?: string;
}

/** Adds a one-data-source subgraph to `ipfs` and answers the manifest's hash. */
export async function publishFixture(ipfs: IpfsStore, options: FixtureOptions = {}): Promise<string> {
  const enc = new TextEncoder();
  const schema = await ipfs.add(enc.encode(FIXTURE_SCHEMA));
  const abi = await ipfs.add(enc.encode(FIXTURE_ABI));
  const wasm = await ipfs.add(wasmExporting(options.exports ?? ["ApprovalHandler"]));
  if (options.rawManifest !== undefined) return ipfs.add(enc.encode(options.rawManifest));
  const link = (cid: string): { "/": string } => ({ "/": `/ipfs/${cid}` });
  const manifest: Record<string, any> = {
    specVersion: "0.0.5",
    schema: { file: link(schema) },
    dataSources: [
      {
        kind: "ethereum",
        name: "ApprovalToken",
        network: "localhost",
        source: { address: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", abi: "ApprovalToken", startBlock: 2 },
        mapping: {
          kind: "ethereum/events",
          apiVersion: "0.0.7",
          language: "wasm/assemblyscript",
          entities: ["ApprovalQuery"],
          abis: [{ name: "ApprovalToken", file: link(abi) }],
          eventHandlers: [{ event: APPROVAL_SIGNATURE, handler: "ApprovalHandler" }],
          file: link(wasm),
        },
      },
    ],
  };
  options.edit?.(manifest, { schema, abi, wasm });
  return ipfs.add(enc.encode(stringify(manifest)));
}
