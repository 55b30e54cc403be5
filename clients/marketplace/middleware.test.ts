import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateTestKeys, referenceClaims, signToken } from "./_test/keys.js";
import { createTokenMiddleware, readBearerToken, type AuthenticatedRequest } from "./middleware.js";
import { createTokenValidator } from "./validateToken.js";
import { listen, type RunningServer } from "subgraph-workbench/lib/http";

const SLUG = "my-app";
const PAID = `com.${SLUG}.api.Paid`;
const keys = generateTestKeys();
const now = Math.floor(Date.now() / 1000);
const valid = signToken(keys.privateKey, referenceClaims({ now, slug: SLUG }));
const free = signToken(keys.privateKey, referenceClaims({ now, slug: SLUG, scope: [`com.${SLUG}.api.Free`] }));
let server: RunningServer;
let base: string;

beforeAll(async () => {
  const validator = createTokenValidator({ publicKey: keys.publicKey, audience: SLUG });
  const guard = createTokenMiddleware({ validator });
  const paidOnly = createTokenMiddleware({ validator, requiredScope: PAID });
  // A plain node:http app: the middleware's next() runs the route.
  const app = createServer((req, res) => {
    const route = req.url === "/paid" ? paidOnly : guard;
    if (req.url === "/public") {
      res.end("hello");
      return;
    }
    route(req, res, (error) => {
      if (error) {
        res.statusCode = 500;
        res.end();
        return;
      }
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ claims: (req as AuthenticatedRequest).auth }));
    });
  });
  server = await listen(app);
  base = server.url;
});

afterAll(async () => {
  await server.close();
});

async function call(path: string, authorization?: string) {
  const response = await fetch(`${base}${path}`, authorization === undefined ? {} : { headers: { Authorization: authorization } });
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate"),
    type: response.headers.get("content-type"),
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe("createTokenMiddleware on a loopback node:http server", () => {
  it("passes a valid token and attaches the claims", async () => {
    const { status, body } = await call("/me", `Bearer ${valid}`);
    expect(status).toBe(200);
    expect(body["claims"]).toMatchObject({ aud: SLUG, sub: "account-7f3a", scope: [PAID] });
  });

  it("accepts a lower-case scheme and surrounding spaces", async () => {
    expect((await call("/me", `bearer   ${valid} `)).status).toBe(200);
  });

  it("answers 401 with a JSON error when the header is missing or not Bearer", async () => {
    for (const header of [undefined, `Basic ${valid}`, "Bearer", `Bearer ${valid} extra`]) {
      const response = await call("/me", header);
      expect(response.status).toBe(401);
      expect(response.type).toMatch(/^application\/json/);
      expect(response.challenge).toBe("Bearer");
      expect(response.body).toEqual({ error: "Missing bearer token in the Authorization header", code: "ERR_BEARER_MISSING" });
    }
  });

  it("answers 401 with the reference message for a bad token", async () => {
    const expired = signToken(keys.privateKey, referenceClaims({ now: now - 7200, slug: SLUG }));
    const cases: Array<[string, string, string]> = [
      [expired, "Failed to parse JWT token: Token is expired", "ERR_JWT_EXPIRED"],
      [signToken(keys.privateKey, referenceClaims({ now, slug: "other" })), "Invalid Token: Invalid audience", "ERR_JWT_AUDIENCE"],
      [`${valid.slice(0, -3)}AAA`, "Failed to parse JWT token: ed25519: verification error", "ERR_JWS_SIGNATURE_INVALID"],
      ["a.b", "Failed to parse JWT token: token contains an invalid number of segments", "ERR_JWT_MALFORMED"],
    ];
    for (const [token, error, code] of cases) {
      const response = await call("/me", `Bearer ${token}`);
      expect(response.status).toBe(401);
      expect(response.challenge).toBe('Bearer error="invalid_token"');
      expect(response.body).toEqual({ error, code });
    }
  });

  it("requires the configured scope: 403 insufficient_scope without it, 200 with it", async () => {
    const refused = await call("/paid", `Bearer ${free}`);
    expect(refused.status).toBe(403);
    expect(refused.challenge).toBe(`Bearer error="insufficient_scope", scope="${PAID}"`);
    expect(refused.body).toEqual({ error: "Invalid Token: Token is not valid", code: "ERR_JWT_SCOPE" });
    expect((await call("/paid", `Bearer ${valid}`)).status).toBe(200);
  });

  it("leaves unguarded routes alone", async () => {
    const response = await fetch(`${base}/public`);
    expect(await response.text()).toBe("hello");
  });
});

describe("readBearerToken", () => {
  it("reads only a single Bearer credential", () => {
    const req = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as never;
    expect(readBearerToken(req("Bearer abc.def.ghi"))).toBe("abc.def.ghi");
    expect(readBearerToken(req("BEARER\tabc"))).toBe("abc");
    expect(readBearerToken(req("Bearerabc"))).toBeUndefined();
    expect(readBearerToken(req())).toBeUndefined();
  });
});
