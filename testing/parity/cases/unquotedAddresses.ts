// A manifest as gnd's build writes it, `address: 0x5FbD...` with no quotes (graph-cli quotes it): graph-node's
// serde_yaml reads that as the address string, where a YAML 1.2 core-schema reader sees a hex number.
// Both engines read the same rewritten build folder (the local node gets it uploaded as it is) and must
// index the same: the overloaded-calls fixture and scenario.
import { join } from "node:path";
import { deployOverloadedCalls, emitTagged } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase } from "subgraph-workbench/parity";

/** Every quoted 20-byte hex address of the manifest, unquoted. */
export function unquoteAddresses(text: string): string {
  const unquoted = text.replace(/^(\s*address:[ \t]*)(["'])(0x[0-9a-fA-F]{40})\2[ \t]*$/gm, "$1$3");
  if (unquoted === text) throw new Error("the built manifest has no quoted address to unquote");
  return unquoted;
}

export function unquotedAddressesCase(): ParityCase {
  return {
    name: "unquoted-addresses",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "overloaded"),
    builtManifest: unquoteAddresses,
    async scenario({ chainUrl }) {
      const { address, startBlock } = await deployOverloadedCalls({ rpcUrl: chainUrl });
      const blocks = await emitTagged({ rpcUrl: chainUrl, address, calls: [{ tag: `0x${"ab".repeat(32)}`, amount: 3n, label: "unquoted" }, { tag: `0x${"cd".repeat(32)}`, amount: 4n, label: "still" }] });
      return { address, startBlock, pastBlocks: [blocks[0]!] };
    },
  };
}
