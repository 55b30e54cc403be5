// The test file's `files` as an IPFS RPC API on 127.0.0.1 (`POST /api/v0/cat?arg=<cid or path>`), the
// node's fallback IPFS for file data sources. As in gnd's mock IPFS client, a CID answers the bytes the
// file gives it whatever their real hash; a CID it lacks is remembered, so the test fails naming it.
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { sendError, serve } from "../lib/http/index.js";
import { GndTestError, type MockFile } from "./testFile.js";

export interface MockIpfs {
  url: string;
  /** CIDs (or paths) a file data source asked for that the test file does not give. */
  missing: Set<string>;
  close(): Promise<void>;
}

export async function startMockIpfs(files: MockFile[], testPath: string): Promise<MockIpfs> {
  const contents = new Map<string, Uint8Array>();
  for (const f of files) {
    if (f.content !== null) contents.set(f.cid, new TextEncoder().encode(f.content));
    else {
      const path = isAbsolute(f.file!) ? f.file! : join(dirname(testPath), f.file!);
      contents.set(f.cid, await readFile(path).catch((error: unknown) => {
        throw new GndTestError(`Failed to read file '${path}': ${(error as Error).message}`, { cause: error });
      }));
    }
  }
  const missing = new Set<string>();
  const server = await serve(
    (req, res, url) => {
      const arg = (url.searchParams.get("arg") ?? "").replace(/^\/ipfs\//, "");
      if (req.method !== "POST" || url.pathname !== "/api/v0/cat") return sendError(res, 404, "not found");
      const bytes = contents.get(arg) ?? contents.get(arg.split("/")[0] ?? "");
      if (!bytes) {
        missing.add(arg);
        return sendError(res, 500, `${arg} is not in the test file's files`);
      }
      res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": bytes.length });
      res.end(bytes);
    },
    { loopbackOnly: true },
  );
  return { url: server.url, missing, close: () => server.close() };
}
