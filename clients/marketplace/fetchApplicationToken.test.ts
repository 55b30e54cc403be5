import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateTestKeys } from "./_test/keys.js";
import { startTokenServer, type TokenServer } from "./_test/tokenServer.js";
import {
  TokenClientConfigError,
  TokenHttpError,
  TokenNetworkError,
  TokenResponseError,
  TokenTimeoutError,
} from "./errors.js";
import { bodyMessage, fetchApplicationToken, tokenEndpoint } from "./fetchApplicationToken.js";
import { createTokenValidator } from "./validateToken.js";
import { freePort } from "subgraph-workbench/lib/freePort";

const API_KEY = "pk_live_9c1d2e3f4a5b6c7d8e9f";
const keys = generateTestKeys();
let server: TokenServer;
let echoServer: TokenServer;

beforeAll(async () => {
  const common = {
    privateKey: keys.privateKey,
    accounts: { [API_KEY]: "account-42" },
    applications: { "my-app": ["com.my-app.api.Paid"], broken: [], empty: [], slow: [] },
  };
  server = await startTokenServer(common);
  echoServer = await startTokenServer({ ...common, echoKeyOn401: true });
});

afterAll(async () => {
  await server.close();
  await echoServer.close();
});

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

/** A loopback port that was just free: listen, note the port, close. */
const closedPort = freePort;

function expectNoSecret(error: unknown, secret: string): void {
  expect(inspect(error, { depth: 10 })).not.toContain(secret);
  expect(JSON.stringify(error)).not.toContain(secret);
  expect(String(error)).not.toContain(secret);
}

describe("fetchApplicationToken", () => {
  it("exchanges the API key for a token issued as the reference does", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { accessToken } = await fetchApplicationToken({ baseUrl: server.url, apiKey: API_KEY, slug: "my-app" });
    const claims = createTokenValidator({ publicKey: keys.publicKey, audience: "my-app" }).validate(accessToken);
    expect(claims).toMatchObject({ sub: "account-42", iss: "platform", aud: "my-app", scope: ["com.my-app.api.Paid"] });
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.exp).toBe((claims.iat ?? 0) + 3600);
    expect(claims.nbf).toBe((claims.iat ?? 0) - 60);
  });

  it("sends POST to the slug's token path with the Bearer key and no body", async () => {
    const start = server.requests.length;
    await fetchApplicationToken({ baseUrl: `${server.url}/`, apiKey: API_KEY, slug: "my-app" });
    expect(server.requests.slice(start)).toEqual([
      { method: "POST", path: "/v1/marketplace/applications/my-app/token/", authorization: `Bearer ${API_KEY}`, bodyLength: 0 },
    ]);
  });

  it("turns 401 into TokenHttpError with the status and the body's message, without the key", async () => {
    const error = await failure(fetchApplicationToken({ baseUrl: server.url, apiKey: "wrong-key-123456", slug: "my-app" }));
    expect(error).toBeInstanceOf(TokenHttpError);
    expect(error).toMatchObject({ status: 401, bodyMessage: "Invalid API key", code: "ERR_TOKEN_HTTP" });
    expect(error.message).toBe("Token request failed with HTTP 401: Invalid API key");
    expectNoSecret(error, "wrong-key-123456");
  });

  it("masks the key even when the server echoes it back", async () => {
    const error = await failure(fetchApplicationToken({ baseUrl: echoServer.url, apiKey: "leaky-key-abcdef", slug: "my-app" }));
    expect(error.message).toBe("Token request failed with HTTP 401: Invalid API key ***");
    expectNoSecret(error, "leaky-key-abcdef");
  });

  it("turns 404 (unknown application) and 500 into TokenHttpError", async () => {
    const notFound = await failure(fetchApplicationToken({ baseUrl: server.url, apiKey: API_KEY, slug: "nope" }));
    expect(notFound).toMatchObject({ status: 404, message: "Token request failed with HTTP 404: Application nope not found" });
    const broken = await failure(fetchApplicationToken({ baseUrl: server.url, apiKey: API_KEY, slug: "broken" }));
    expect(broken).toBeInstanceOf(TokenHttpError);
    expect(broken).toMatchObject({ status: 500, message: "Token request failed with HTTP 500: upstream signer unavailable" });
    expectNoSecret(broken, API_KEY);
  });

  it("rejects a 2xx body without access_token", async () => {
    const error = await failure(fetchApplicationToken({ baseUrl: server.url, apiKey: API_KEY, slug: "empty" }));
    expect(error).toBeInstanceOf(TokenResponseError);
    expect(error.message).toBe("Token response has no access_token");
  });

  it("times out a slow answer", async () => {
    const error = await failure(fetchApplicationToken({ baseUrl: server.url, apiKey: API_KEY, slug: "slow", timeoutMs: 200 }));
    expect(error).toBeInstanceOf(TokenTimeoutError);
    expect(error.message).toBe("Token request timed out after 200 ms");
    expectNoSecret(error, API_KEY);
  });

  it("reports a caller's abort as a network error", async () => {
    const controller = new AbortController();
    const pending = fetchApplicationToken({ baseUrl: server.url, apiKey: API_KEY, slug: "slow", signal: controller.signal });
    controller.abort();
    const error = await failure(pending);
    expect(error).toBeInstanceOf(TokenNetworkError);
    expect(error.message).toBe("Token request failed: aborted");
  });

  it("reports a refused connection as a network error", async () => {
    const error = await failure(fetchApplicationToken({ baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: API_KEY, slug: "my-app" }));
    expect(error).toBeInstanceOf(TokenNetworkError);
    expect(error.message).toMatch(/^Token request failed: .*ECONNREFUSED/);
    expectNoSecret(error, API_KEY);
  });

  it("keeps URL credentials out of errors", async () => {
    const error = await failure(
      fetchApplicationToken({ baseUrl: "http://user:hunter2-secret@127.0.0.1:1", apiKey: API_KEY, slug: "my-app" }),
    );
    expectNoSecret(error, "hunter2-secret");
  });

  it("checks its settings before sending anything", async () => {
    await expect(fetchApplicationToken({ baseUrl: "", apiKey: API_KEY, slug: "a" })).rejects.toThrow(TokenClientConfigError);
    await expect(fetchApplicationToken({ baseUrl: server.url, apiKey: "", slug: "a" })).rejects.toThrow("API key is not set");
    await expect(fetchApplicationToken({ baseUrl: server.url, apiKey: API_KEY, slug: "" })).rejects.toThrow("slug is not set");
    await expect(fetchApplicationToken({ baseUrl: "ftp://x", apiKey: API_KEY, slug: "a" })).rejects.toThrow("http or https");
  });
});

describe("tokenEndpoint", () => {
  it("keeps a base path and encodes the slug", () => {
    expect(tokenEndpoint("https://api.example.test/platform/", "a b").toString()).toBe(
      "https://api.example.test/platform/v1/marketplace/applications/a%20b/token/",
    );
  });
});

describe("bodyMessage", () => {
  it("prefers a JSON message field, then the text, then the fallback", () => {
    expect(bodyMessage('{"detail":"Not authorised"}', "x")).toBe("Not authorised");
    expect(bodyMessage('{"error":"bad"}', "x")).toBe("bad");
    expect(bodyMessage("  plain text \n", "x")).toBe("plain text");
    expect(bodyMessage("", "Unauthorized")).toBe("Unauthorized");
    expect(bodyMessage("y".repeat(400), "x")).toHaveLength(303);
  });
});
