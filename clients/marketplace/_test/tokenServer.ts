// A local token endpoint that behaves like the platform's: POST /v1/marketplace/applications/<slug>/token/
// with a Bearer API key answers {"access_token": <EdDSA JWT>} (exp = iat + 3600, nbf = iat - 60), and
// answers 401 / 404 / 500 for an unknown key, an unknown application, and a failing application.
import { createServer, type Server } from "node:http";
import type { KeyObject } from "node:crypto";
import { SignJWT } from "jose";
import { listen, readBody } from "subgraph-workbench/lib/http";

export type RecordedRequest = {
  method: string;
  path: string;
  authorization: string | undefined;
  bodyLength: number;
};

export type TokenServerOptions = {
  privateKey: KeyObject;
  /** API key -> platform account id (`sub`). */
  accounts: Readonly<Record<string, string>>;
  /** slug -> scopes granted. Special slugs: `broken` (500), `empty` (200 without a token), `slow` (answers late). */
  applications: Readonly<Record<string, readonly string[]>>;
  issuer?: string;
  /** Current time in seconds; default the clock. */
  now?: () => number;
  /** Misbehave like a careless server: echo the presented key in the 401 body. */
  echoKeyOn401?: boolean;
};

export type TokenServer = {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
};

const TOKEN_PATH = /^\/v1\/marketplace\/applications\/([^/]+)\/token\/$/;

export async function startTokenServer(options: TokenServerOptions): Promise<TokenServer> {
  const requests: RecordedRequest[] = [];
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const pending = new Set<NodeJS.Timeout>();

  const server: Server = createServer(async (req, res) => {
    const bodyLength = (await readBody(req)).length;
    const path = req.url ?? "/";
    requests.push({ method: req.method ?? "", path, authorization: req.headers.authorization, bodyLength });
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const match = TOKEN_PATH.exec(path);
    if (req.method !== "POST" || !match) return json(404, { message: "Not found" });
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const sub = key === undefined ? undefined : options.accounts[key];
    if (sub === undefined) {
      return json(401, { message: options.echoKeyOn401 ? `Invalid API key ${key ?? ""}` : "Invalid API key" });
    }
    const slug = decodeURIComponent(match[1] ?? "");
    const scopes = options.applications[slug];
    if (scopes === undefined) return json(404, { message: `Application ${slug} not found` });
    if (slug === "broken") {
      res.writeHead(500, { "Content-Type": "text/plain" });
      return res.end("upstream signer unavailable");
    }
    if (slug === "empty") return json(200, { token_type: "Bearer" });
    const iat = now();
    const token = await new SignJWT({ scope: [...scopes] })
      .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
      .setSubject(sub)
      .setIssuer(options.issuer ?? "platform")
      .setAudience(slug)
      .setIssuedAt(iat)
      .setNotBefore(iat - 60)
      .setExpirationTime(iat + 3600)
      .sign(options.privateKey);
    if (slug === "slow") {
      const timer = setTimeout(() => {
        pending.delete(timer);
        json(200, { access_token: token });
      }, 5_000);
      pending.add(timer);
      return;
    }
    return json(200, { access_token: token });
  });

  const running = await listen(server);
  return {
    url: running.url,
    requests,
    close: () => {
      for (const timer of pending) clearTimeout(timer);
      return running.close();
    },
  };
}
