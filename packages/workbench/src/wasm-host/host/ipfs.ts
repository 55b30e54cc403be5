// ipfs.cat / ipfs.getBlock / ipfs.map. graph-node only serves these with non-deterministic IPFS enabled;
// here they are served when the host has an `ipfsCat` source and are a deterministic error otherwise.
import type { HostEnv, HostFunctions } from "./env.js";
import { HostError } from "../errors.js";
import { parseJsonText } from "./jsonParse.js";

export function ipfsImports(env: HostEnv): HostFunctions {
  const { codec, options } = env;
  const source = (name: string) => {
    if (options.ipfsCat === undefined) {
      throw new HostError("IPFS", `\`ipfs.${name}\` is deprecated. Improved support for IPFS will be added in the future`);
    }
    return options.ipfsCat;
  };
  const cat = (name: string) => (ptr: number) => {
    const read = source(name);
    const link = codec.readString(ptr);
    const bytes = read(link);
    if (bytes === null) {
      options.log?.("info", `Failed ipfs.${name}, returning \`null\`, link: ${link}`);
      return 0;
    }
    return codec.writeBytes(bytes);
  };
  return {
    "ipfs.cat": cat("cat"),
    "ipfs.getBlock": cat("getBlock"),
    "ipfs.map": (linkPtr: number, callbackPtr: number, userDataPtr: number, flagsPtr: number) => {
      const read = source("map");
      const link = codec.readString(linkPtr);
      const callback = codec.readString(callbackPtr);
      const userData = codec.readStoreValue(userDataPtr);
      const flags = codec.readStringArray(flagsPtr);
      const fail = (message: string, cause?: unknown) =>
        new HostError("IPFS", `ipfs_map: callback '${callback}' failed when processing file '${link}': ${message}`, cause === undefined ? {} : { cause });
      if (!flags.includes("json")) throw new HostError("IPFS", "Flags must contain 'json'");
      const bytes = read(link);
      if (bytes === null) throw fail("file not found");
      const fn = env.exports()[callback];
      if (typeof fn !== "function") throw fail(`function ${callback} not found`);
      // One JSON value per line, as graph-node's json_stream.
      const lines = new TextDecoder().decode(bytes).split("\n");
      for (const line of lines) {
        if (line.trim() === "") continue;
        let value;
        try {
          value = parseJsonText(line);
        } catch (cause) {
          throw fail((cause as Error).message, cause);
        }
        try {
          (fn as (v: number, u: number) => void)(codec.writeJsonValue(value), codec.writeStoreValue(userData));
        } catch (cause) {
          // graph-node prefixes the callback's error; determinism follows the callback's failure.
          const inner = cause instanceof HostError ? cause : null;
          throw new HostError("IPFS", `ipfs_map: callback '${callback}' failed when processing file '${link}': ${(cause as Error).message}`, {
            cause,
            deterministic: inner?.deterministic ?? true,
            ...(inner?.abort === undefined ? {} : { abort: inner.abort }),
          });
        }
      }
    },
  };
}
