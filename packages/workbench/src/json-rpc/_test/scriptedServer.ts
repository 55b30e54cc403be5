import { createServer, type Server } from "node:http";
import { listen, readText } from "../../lib/http/index.js";

export type ScriptedReply = { status?: number; body: string; delayMs?: number };

export type ScriptedServer = {
  url: string;
  /** Every request body received, parsed. */
  received: unknown[];
  /** Paths requested (to check that the client posts where it was told). */
  paths: string[];
  close(): Promise<void>;
};

/** A loopback HTTP server whose answers are computed by the test from the parsed request body. */
export async function startScriptedServer(reply: (body: unknown) => ScriptedReply): Promise<ScriptedServer> {
  const received: unknown[] = [];
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readText(req);
      const body: unknown = JSON.parse(text);
      received.push(body);
      paths.push(req.url ?? "");
      const r = reply(body);
      if (r.delayMs) await new Promise((resolve) => setTimeout(resolve, r.delayMs));
      res.writeHead(r.status ?? 200, { "content-type": "application/json" });
      res.end(r.body);
    })();
  });
  const running = await listen(server);
  return { url: running.url, received, paths, close: running.close };
}
