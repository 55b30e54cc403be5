import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedReply = { status?: number; body: string; delayMs?: number };

export type ScriptedServer = {
  url: string;
  /** Every request body received, parsed. */
  received: unknown[];
  /** Paths requested (to check that the client posts where it was told). */
  paths: string[];
  close(): Promise<void>;
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** A loopback HTTP server whose answers are computed by the test from the parsed request body. */
export async function startScriptedServer(reply: (body: unknown) => ScriptedReply): Promise<ScriptedServer> {
  const received: unknown[] = [];
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const body: unknown = JSON.parse(text);
      received.push(body);
      paths.push(req.url ?? "");
      const r = reply(body);
      if (r.delayMs) await new Promise((resolve) => setTimeout(resolve, r.delayMs));
      res.writeHead(r.status ?? 200, { "content-type": "application/json" });
      res.end(r.body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    paths,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
