import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateTestKeys, referenceClaims, signToken } from "../_test/keys.js";
import { startTokenServer, type TokenServer } from "../_test/tokenServer.js";
import type { CommandIo } from "./commandIo.js";
import { runTokenCommand } from "./tokenCommand.js";
import { runValidateCommand } from "./validateCommand.js";

const API_KEY = "pk_cli_0123456789abcdef";
const keys = generateTestKeys();
const scratch = mkdtempSync(join(tmpdir(), "marketplace-cli-"));
const emptyEnvFile = join(scratch, "empty.env");
writeFileSync(emptyEnvFile, "");
let server: TokenServer;

beforeAll(async () => {
  server = await startTokenServer({ privateKey: keys.privateKey, accounts: { [API_KEY]: "account-1" }, applications: { "my-app": ["com.my-app.api.Paid"] } });
});

afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

function io(env: Record<string, string> = {}, stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const value: CommandIo = {
    env,
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    readStdin: async () => stdin,
  };
  return { io: value, out: () => out.join(""), err: () => err.join("") };
}

describe("token command", () => {
  it("prints the token, taking base URL and key from the environment", async () => {
    const run = io({ MARKETPLACE_BASE_URL: server.url, MARKETPLACE_API_KEY: API_KEY });
    expect(await runTokenCommand({ slug: "my-app", envFile: emptyEnvFile }, run.io)).toBe(0);
    expect(run.out()).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+\n$/);
  });

  it("--decode prints header and claims marked as unverified", async () => {
    const run = io();
    expect(await runTokenCommand({ slug: "my-app", baseUrl: server.url, apiKey: API_KEY, decode: true, envFile: emptyEnvFile }, run.io)).toBe(0);
    expect(run.out()).toMatch(/^UNVERIFIED: decoded without checking the signature/);
    expect(run.out()).toContain('header (unverified): {\n  "alg": "EdDSA"');
    expect(run.out()).toContain('"aud": "my-app"');
  });

  it("reads settings from an explicit .env file", async () => {
    const file = join(scratch, "client.env");
    writeFileSync(file, `MARKETPLACE_BASE_URL=${server.url}\nMARKETPLACE_API_KEY=${API_KEY}\nMARKETPLACE_APP_SLUG=my-app\n`);
    const run = io();
    expect(await runTokenCommand({ envFile: file }, run.io)).toBe(0);
    expect(run.out().split(".")).toHaveLength(3);
  });

  it("prints the error without the key and exits 1", async () => {
    const run = io();
    expect(await runTokenCommand({ slug: "my-app", baseUrl: server.url, apiKey: "bad-key-77777777", envFile: emptyEnvFile }, run.io)).toBe(1);
    expect(run.err()).toBe("Token request failed with HTTP 401: Invalid API key\n");
    expect(run.err() + run.out()).not.toContain("bad-key-77777777");
    const missing = io();
    expect(await runTokenCommand({ envFile: join(scratch, "nope.env") }, missing.io)).toBe(1);
    expect(missing.err()).toBe(`error loading .env file: open ${join(scratch, "nope.env")}: no such file or directory\n`);
  });

  it("treats a non-numeric timeout as a usage error", async () => {
    const run = io();
    expect(await runTokenCommand({ slug: "my-app", baseUrl: server.url, apiKey: API_KEY, timeoutMs: Number.NaN, envFile: emptyEnvFile }, run.io)).toBe(1);
    expect(run.err()).toBe("Timeout must be a positive number of milliseconds\n");
  });
});

describe("token:validate command", () => {
  const now = Math.floor(Date.now() / 1000);
  const token = signToken(keys.privateKey, referenceClaims({ now, slug: "my-app" }));
  const env = { JWT_PUBLIC_KEY: keys.oneLinePem };

  it("prints the verified claims and exits 0", async () => {
    const run = io(env);
    expect(await runValidateCommand({ token, audience: "my-app", envFile: emptyEnvFile }, run.io)).toBe(0);
    const printed = JSON.parse(run.out()) as { valid: boolean; claims: Record<string, unknown> };
    expect(printed.valid).toBe(true);
    expect(printed.claims).toMatchObject({ aud: "my-app", exp: now + 3600, scope: ["com.my-app.api.Paid"] });
  });

  it("reads the token from standard input with -", async () => {
    const run = io(env, `${token}\n`);
    expect(await runValidateCommand({ token: "-", audience: "my-app", envFile: emptyEnvFile }, run.io)).toBe(0);
  });

  it("prints the reference message and exits 1 on a bad token or key", async () => {
    const wrongAudience = io(env);
    expect(await runValidateCommand({ token, audience: "other", envFile: emptyEnvFile }, wrongAudience.io)).toBe(1);
    expect(wrongAudience.err()).toBe("Invalid Token: Invalid audience\n");

    const noKey = io();
    expect(await runValidateCommand({ token, audience: "my-app", envFile: emptyEnvFile }, noKey.io)).toBe(1);
    expect(noKey.err()).toBe("Environment variable for public key is not set\n");

    const scope = io(env);
    expect(await runValidateCommand({ token, audience: "my-app", scopes: ["com.my-app.api.Admin"], envFile: emptyEnvFile }, scope.io)).toBe(1);
    expect(scope.err()).toBe("Invalid Token: Token is not valid\n");
  });

  it("asks for the audience and the token", async () => {
    const run = io(env);
    expect(await runValidateCommand({ token, envFile: emptyEnvFile }, run.io)).toBe(2);
    expect(run.err()).toMatch(/^An audience is required/);
    expect(await runValidateCommand({ audience: "my-app", envFile: emptyEnvFile }, run.io)).toBe(2);
  });
});
