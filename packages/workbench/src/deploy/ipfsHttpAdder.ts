// Adding files to an IPFS RPC API (Kubo's `POST .../add`) as graph-cli's IPFS client (kubo-rpc-client)
// does: the same address rules, one multipart part per file, no import options, so the server's
// defaults apply (CIDv0, 256 KiB chunks) and the CID is the one graph-cli gets for the same bytes.
import { randomBytes } from "node:crypto";
import { CID } from "multiformats/cid";
import { errorText } from "../lib/errors.js";
import { errorWithoutSecrets, maskSecrets, maskUrl, secretsInUrl } from "../lib/redact.js";
import { IpfsAddError } from "./errors.js";
import type { IpfsAdder } from "./uploadBuild.js";

export interface IpfsHttpAdderOptions {
  /** Per add; an endpoint that never answers fails instead of hanging the deploy. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** The `add` address graph-cli posts to for `ipfsUrl`. */
export function ipfsAddUrl(ipfsUrl: string): URL {
  // graph-cli appends the API path to The Graph's own `.../ipfs` addresses (appendApiVersionForGraph).
  const base = new URL(/^(https?:\/\/)?([\w-]+\.)+thegraph\.com\/ipfs\/?$/.test(ipfsUrl) ? `${ipfsUrl.replace(/\/$/, "")}/api/v0` : ipfsUrl);
  // kubo-rpc-client: a bare host means Kubo's `/api/v0`; any other path is the API's base itself.
  if (base.pathname === "/") base.pathname = "/api/v0";
  base.pathname = `${base.pathname.replace(/\/+$/, "")}/add`;
  // Its own query only: the client replaces the address's (and `progress=false` asks for no progress lines).
  base.search = "?stream-channels=true&progress=false";
  return base;
}

/** An adder over HTTP to the IPFS RPC API at `ipfsUrl` (a local node, Kubo, or a platform's address with its key). */
export function ipfsHttpAdder(ipfsUrl: string, options: IpfsHttpAdderOptions = {}): IpfsAdder {
  const secrets = secretsInUrl(ipfsUrl);
  const shown = maskUrl(ipfsUrl);
  const fail = (message: string, cause?: unknown): never => {
    throw new IpfsAddError(maskSecrets(message, secrets), ipfsUrl, cause === undefined ? {} : { cause: errorWithoutSecrets(cause, secrets) });
  };
  const url = ipfsAddUrl(ipfsUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    async add(bytes, name = "file") {
      const boundary = `-----------------------------${randomBytes(12).toString("hex")}`;
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${encodeURIComponent(name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      const body = Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        if (error instanceof Error && error.name === "TimeoutError") return fail(`the IPFS API at ${shown} did not answer adding ${name} within ${timeoutMs / 1000} s`, error);
        return fail(`the IPFS API at ${shown} is unreachable (${reason(error)}) while adding ${name}`, error);
      }
      const text = await response.text().catch((error: unknown) => fail(`the IPFS API at ${shown} broke off its answer to adding ${name} (${reason(error)})`, error));
      if (!response.ok) return fail(`the IPFS API at ${shown} refused to add ${name}: HTTP ${response.status}${kuboMessage(text)}`);
      // One JSON object per line (files, then any directories); the first is the file (graph-cli takes it).
      const first = text.split("\n").find((line) => line.trim() !== "");
      let hash: unknown;
      try {
        hash = (JSON.parse(first ?? "") as { Hash?: unknown }).Hash;
      } catch {
        hash = undefined;
      }
      if (typeof hash !== "string" || !isCid(hash)) return fail(`the IPFS API at ${shown} answered adding ${name} with no hash: ${JSON.stringify(text.slice(0, 200))}`);
      return hash;
    },
  };
}

/** Kubo's error body (`{"Message": ...}`), or the start of whatever else came back. */
function kuboMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { Message?: unknown }).Message;
    if (typeof message === "string") return `: ${message}`;
  } catch {
    // not Kubo's JSON
  }
  return text.trim() === "" ? "" : `: ${text.trim().slice(0, 200)}`;
}

/** fetch's own words are "fetch failed"; the socket's code says what happened. */
function reason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === "string") return cause.code;
  return typeof cause?.message === "string" ? cause.message : errorText(error);
}

function isCid(text: string): boolean {
  try {
    CID.parse(text);
    return true;
  } catch {
    return false;
  }
}
