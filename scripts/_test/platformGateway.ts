import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { listen } from "subgraph-workbench/lib/http";

export interface PlatformGateway {
  deployUrl: string;
  ipfsUrl: string;
  /** Paths that reached the gateway, to prove traffic went through it. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * A loopback stand-in for the platform's address shape: `/<KEY>/deploy` and `/<KEY>/ipfs/...`, as the
 * console hands them out. It checks the key and forwards to a real local node's admin and IPFS servers.
 */
export async function startPlatformGateway(key: string, upstream: { admin: string; ipfs: string }): Promise<PlatformGateway> {
  const seen: string[] = [];
  const forward = (req: IncomingMessage, res: ServerResponse, target: URL) => {
    const upstreamReq = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
    });
    upstreamReq.on("error", (e) => {
      res.writeHead(502).end(String(e));
    });
    req.pipe(upstreamReq);
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://gateway");
    seen.push(url.pathname);
    const [, givenKey, service, ...rest] = url.pathname.split("/");
    if (givenKey !== key) return void res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid access key"}');
    if (service === "deploy") return forward(req, res, new URL(upstream.admin));
    // graph-cli's IPFS client treats a URL with a path as the API base (`/<KEY>/ipfs/add`), so the
    // gateway maps it onto Kubo's `/api/v0/<method>`.
    if (service === "ipfs") {
      const method = rest[0] === "api" && rest[1] === "v0" ? rest.slice(2) : rest;
      return forward(req, res, new URL(`/api/v0/${method.join("/")}${url.search}`, upstream.ipfs));
    }
    res.writeHead(404).end();
  });
  const running = await listen(server);
  return {
    deployUrl: `${running.url}/${key}/deploy`,
    ipfsUrl: `${running.url}/${key}/ipfs`,
    seen,
    close: running.close,
  };
}
