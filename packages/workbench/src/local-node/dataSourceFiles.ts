// Where a file data source's file comes from: the node's own IPFS (what `graph deploy` and `ipfs add`
// put there), then, when an IPFS node is named (IPFS_URL, as graph-node's `--ipfs`), that node's RPC
// `cat`. A file that is in neither, or cannot be read, is "not there yet": the indexer looks again later,
// as graph-node keeps polling. Files over the size limit are never handed to a handler.
import type { IpfsStore } from "./ipfs/index.js";
import type { LogLevel } from "../wasm-host/index.js";

/** graph-node's GRAPH_MAX_IPFS_FILE_BYTES default. */
export const MAX_DATA_SOURCE_FILE_BYTES = 25 * 2 ** 20;

export interface FileReaderOptions {
  ipfs: IpfsStore;
  /** An IPFS RPC API (`http://host:5001`) asked for files this node lacks. */
  fallbackUrl?: string;
  maxBytes?: number;
  /** Per request to the fallback (graph-node's GRAPH_IPFS_TIMEOUT default is 60 s). */
  timeoutMs?: number;
  log(level: LogLevel, message: string): void;
}

export function createFileReader(options: FileReaderOptions): (path: string) => Promise<Uint8Array | null> {
  const maxBytes = options.maxBytes ?? MAX_DATA_SOURCE_FILE_BYTES;
  const tooBig = (path: string, size: number): null => {
    options.log("warning", `file data source ${path}: the file has ${size} bytes or more, more than the ${maxBytes} a file data source may read`);
    return null;
  };
  return async (path) => {
    let bytes: Uint8Array | null = null;
    try {
      bytes = await options.ipfs.cat(`/ipfs/${path}`);
    } catch (error) {
      options.log("warning", `file data source ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (bytes === null && options.fallbackUrl) return fetchRemote(options, path, maxBytes, tooBig);
    if (bytes !== null && bytes.length > maxBytes) return tooBig(path, bytes.length);
    return bytes;
  };
}

/** `cat` on the named IPFS node, read no further than the limit; null when it answers no file. */
async function fetchRemote(options: FileReaderOptions, path: string, maxBytes: number, tooBig: (path: string, size: number) => null): Promise<Uint8Array | null> {
  const url = `${options.fallbackUrl!.replace(/\/+$/, "")}/api/v0/cat?arg=${encodeURIComponent(path)}`;
  try {
    const res = await fetch(url, { method: "POST", signal: AbortSignal.timeout(options.timeoutMs ?? 60_000) });
    if (!res.ok || !res.body) {
      options.log("debug", `file data source ${path}: the IPFS node answered ${res.status}`);
      await res.body?.cancel();
      return null;
    }
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      size += part.value.length;
      if (size > maxBytes) {
        // Past the limit is enough to refuse it; the rest is not read.
        await reader.cancel();
        return tooBig(path, size);
      }
      chunks.push(part.value);
    }
    return Buffer.concat(chunks);
  } catch (error) {
    options.log("debug", `file data source ${path}: the IPFS node did not answer: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
