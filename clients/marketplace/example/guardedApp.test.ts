import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateTestKeys, referenceClaims, signToken } from "../_test/keys.js";
import { createTokenValidator } from "../validateToken.js";
import { createGuardedApp } from "./guardedApp.js";
import { listen, type RunningServer } from "subgraph-workbench/lib/http";

const keys = generateTestKeys();
const now = Math.floor(Date.now() / 1000);
let app: RunningServer;
let base: string;

beforeAll(async () => {
  const validator = createTokenValidator({ publicKey: keys.publicKey, audience: "demo" });
  app = await listen(createGuardedApp({ validator, paidScope: "com.demo.api.Paid" }));
  base = app.url;
});

afterAll(async () => {
  await app.close();
});

const get = async (path: string, token?: string) => {
  const response = await fetch(`${base}${path}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("example guarded app", () => {
  it("serves /health without a token and guards /whoami and /paid", async () => {
    const paid = signToken(keys.privateKey, referenceClaims({ now, slug: "demo", scope: ["com.demo.api.Paid"] }));
    const free = signToken(keys.privateKey, referenceClaims({ now, slug: "demo", scope: ["com.demo.api.Free"] }));
    expect(await get("/health")).toEqual({ status: 200, body: { ok: true } });
    expect((await get("/whoami")).status).toBe(401);
    expect(await get("/whoami", free)).toMatchObject({ status: 200, body: { account: "account-7f3a", application: "demo", scopes: ["com.demo.api.Free"] } });
    expect(await get("/paid", free)).toMatchObject({ status: 403, body: { error: "Invalid Token: Token is not valid" } });
    expect(await get("/paid", paid)).toMatchObject({ status: 200, body: { feature: "paid" } });
  });
});
