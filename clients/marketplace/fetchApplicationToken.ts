// POST {base_url}/v1/marketplace/applications/{app_slug}/token/ with the user's platform API key as a
// Bearer credential and no body; the answer is {"access_token": "<jwt>"}.
import {
  TokenClientConfigError,
  TokenHttpError,
  TokenNetworkError,
  TokenResponseError,
  TokenTimeoutError,
} from "./errors.js";
import { errorWithoutSecrets, maskSecrets, secretsInUrl } from "subgraph-workbench/lib/redact";

export type FetchApplicationTokenParameters = {
  /** Platform API base address, e.g. `https://api.example.com`; no vendor host is built in. */
  baseUrl: string;
  /** The user's platform API key (not the JWT). Never appears in errors. */
  apiKey: string;
  /** The application slug. */
  slug: string;
  /** Whole-request limit in milliseconds (connect, answer and body); default 10,000. */
  timeoutMs?: number;
  /** Injected fetch, e.g. for a proxy agent; default the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Aborts the request early. */
  signal?: AbortSignal;
};

export type FetchApplicationTokenReturnType = {
  accessToken: string;
};

export const DEFAULT_TOKEN_TIMEOUT_MS = 10_000;
const MAX_MESSAGE_LENGTH = 300;

/** The token endpoint for a slug under a base URL (a path prefix on the base URL is kept). */
export function tokenEndpoint(baseUrl: string, slug: string): URL {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new TokenClientConfigError("Base URL is not a valid URL", { details: { baseUrl: maskSecrets(baseUrl, secretsInUrl(baseUrl)) } });
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new TokenClientConfigError("Base URL must use http or https", { details: { protocol: base.protocol } });
  }
  const prefix = base.pathname.replace(/\/+$/, "");
  base.pathname = `${prefix}/v1/marketplace/applications/${encodeURIComponent(slug)}/token/`;
  base.search = "";
  base.hash = "";
  return base;
}

/** The most useful message in an error body: a JSON `message`/`detail`/`error` field, else the text. */
export function bodyMessage(text: string, fallback: string): string {
  let message = text.trim();
  try {
    const json: unknown = JSON.parse(text);
    if (json !== null && typeof json === "object") {
      const record = json as Record<string, unknown>;
      for (const field of ["message", "detail", "error_description", "error"]) {
        const value = record[field];
        if (typeof value === "string" && value !== "") {
          message = value;
          break;
        }
      }
    }
  } catch {
    // Not JSON: keep the text.
  }
  if (message === "") return fallback;
  return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}...` : message;
}

function readAccessToken(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TokenResponseError("Token response is not JSON", { cause: error });
  }
  const token = json !== null && typeof json === "object" ? (json as Record<string, unknown>)["access_token"] : undefined;
  if (typeof token !== "string" || token === "") {
    throw new TokenResponseError("Token response has no access_token");
  }
  return token;
}

/** Exchanges the user's API key for the application's JWT. */
export async function fetchApplicationToken(parameters: FetchApplicationTokenParameters): Promise<FetchApplicationTokenReturnType> {
  const { apiKey, slug } = parameters;
  if (!parameters.baseUrl) throw new TokenClientConfigError("Base URL is not set");
  if (!apiKey) throw new TokenClientConfigError("API key is not set");
  if (!slug) throw new TokenClientConfigError("Application slug is not set");
  const secrets = [apiKey, ...secretsInUrl(parameters.baseUrl)];
  const url = tokenEndpoint(parameters.baseUrl, slug);
  const timeoutMs = parameters.timeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TokenClientConfigError("Timeout must be a positive number of milliseconds", { details: { timeoutMs } });
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = parameters.signal ? AbortSignal.any([timeout, parameters.signal]) : timeout;
  const doFetch = parameters.fetch ?? globalThis.fetch;
  const endpoint = maskSecrets(url.toString(), secrets);

  let status: number;
  let statusText: string;
  let text: string;
  try {
    const response = await doFetch(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, Accept: "application/json" },
      signal,
      redirect: "error",
    });
    status = response.status;
    statusText = response.statusText;
    text = await response.text();
  } catch (error) {
    const cause = errorWithoutSecrets(error, secrets);
    if (timeout.aborted) {
      throw new TokenTimeoutError(`Token request timed out after ${timeoutMs} ms`, { cause, details: { endpoint, timeoutMs } });
    }
    const reason = parameters.signal?.aborted ? "aborted" : networkReason(error, secrets);
    throw new TokenNetworkError(`Token request failed: ${reason}`, { cause, details: { endpoint } });
  }

  if (status < 200 || status > 299) {
    const message = maskSecrets(bodyMessage(text, statusText || "no message"), secrets);
    throw new TokenHttpError(status, message, { details: { endpoint, status } });
  }
  return { accessToken: readAccessToken(text) };
}

/** undici hides the useful part ("connect ECONNREFUSED 127.0.0.1:1") in `cause`. */
function networkReason(error: unknown, secrets: readonly string[]): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const inner = cause instanceof Error ? cause.message : undefined;
  const outer = error instanceof Error ? error.message : String(error);
  return maskSecrets(inner ?? outer, secrets);
}
