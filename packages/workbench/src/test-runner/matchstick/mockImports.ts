// Mocks of the outside world: contract calls, IPFS files (a mocked file holding a JSON array for
// `ipfs.map`) and project files, read relative to the project root as Matchstick does.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { EthereumValue } from "../../wasm-host/index.js";
import { critical, type ImportGroup, type MatchstickLink } from "./linkContext.js";
import { parseJsonText } from "./jsonText.js";
import { bytesHex } from "./values.js";

function readProjectFile({ state, logger, root }: MatchstickLink, path: string): Uint8Array {
  try {
    return readFileSync(resolve(root, path));
  } catch (err) {
    return critical(state, logger, `Failed to read file \`${path}\` with error: ${(err as Error).message}`);
  }
}

export function mockImports(link: MatchstickLink): ImportGroup {
  const { state, logger, ctx, codec, str } = link;
  const values = (ptr: number): EthereumValue[] => codec.readArray(ptr, (p) => codec.readEthereumValue(p));
  return {
    mockFunction: (address: number, name: number, signature: number, args: number, returns: number, reverts: number) => {
      state.mocks.mock({
        address: bytesHex(codec.readBytes(address)),
        name: str(name),
        signature: str(signature),
        args: values(args),
        returns: values(returns),
        reverts: reverts !== 0,
      });
    },
    mockIpfsFile: (hash: number, path: number) => {
      state.ipfs.set(str(hash), str(path));
    },
    readFile: (path: number) => codec.writeBytes(readProjectFile(link, str(path))),
    "ipfs.map": (linkPtr: number, callback: number, userData: number, _flags: number) => {
      const hash = str(linkPtr);
      const path = state.ipfs.get(hash);
      if (path === undefined) critical(state, logger, `IPFS file \`${hash}\` not found`);
      const parsed = parseJsonText(Buffer.from(readProjectFile(link, path)).toString("utf8"));
      const items = parsed.kind === "array" ? parsed.value : critical(state, logger, `IPFS file \`${hash}\` is not a JSON array`);
      const name = str(callback);
      const fn = ctx.exports[name];
      if (typeof fn !== "function") throw new Error(`function ${name} not found`);
      for (const item of items) (fn as (value: number, userData: number) => void)(codec.writeJsonValue(item), userData);
    },
  };
}
