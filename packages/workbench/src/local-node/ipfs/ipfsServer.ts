// createIpfsServer: the subset of Kubo's RPC API (/api/v0) that graph-cli (kubo-rpc-client) and
// graph-node use: add, pin/add, cat, block/get, version. Answers and errors in Kubo's wire format.
import type { IncomingMessage, ServerResponse } from "node:http";
import { IpfsError, IpfsRequestError } from "./errors.js";
import { KUBO_CHUNK_SIZE } from "./ipfsStore.js";
import { multipartBoundary, parseMultipart } from "./multipart.js";
import type { IpfsServerOptions, IpfsStore, RunningServer } from "./types.js";
import { BodyTooLargeError, describeError, readBody, sendJson, serve } from "../../lib/http/index.js";

const DEFAULT_MAX_BODY = 256 * 1024 * 1024;
/** What `version` reports: Kubo's field set, naming this implementation honestly. */
const VERSION_INFO = { Version: "0.0.0-local-node", Commit: "", Repo: "16", System: `${process.arch}/${process.platform}`, Golang: "" };

type Query = URLSearchParams;

/** Go's strconv.ParseBool, which Kubo uses for boolean options. */
function boolOption(query: Query, name: string, fallback: boolean): boolean {
  const raw = query.get(name);
  if (raw === null || raw === "") return fallback;
  if (["1", "t", "T", "TRUE", "true", "True"].includes(raw)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(raw)) return false;
  throw new IpfsRequestError(`Could not convert value '${raw}' to type 'bool' (for option '-${name}')`);
}

function intOption(query: Query, name: string): number | null {
  const raw = query.get(name);
  if (raw === null || raw === "") return null;
  // Past 2^53 a JS number is no longer the integer given; such an offset or length is refused too.
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new IpfsRequestError(`Could not convert value '${raw}' to type 'int64' (for option '-${name}')`);
  return Number(raw);
}

/** Most `arg`s one request may name (Kubo has no cap; each one is a read of stored content here). */
export const MAX_ARGS = 1024;

function requiredArgs(query: Query, argName: string): string[] {
  const args = query.getAll("arg");
  if (args.length === 0) throw new IpfsRequestError(`argument "${argName}" is required`);
  if (args.length > MAX_ARGS) throw new IpfsRequestError(`too many arguments: ${args.length}, at most ${MAX_ARGS} per request`);
  return args;
}

/** The whole body; over `limit` bytes a client error (400), as Kubo's. */
async function readLimitedBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  try {
    return await readBody(req, { maxBytes: limit });
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new IpfsRequestError(`request body larger than ${limit} bytes`, { cause: error });
    throw error;
  }
}

function sendError(res: ServerResponse, error: IpfsError): void {
  sendJson(res, error.httpStatus, { Message: error.message, Code: error.kuboCode, Type: "error" });
}

/** Only Kubo's default import settings are supported: refuse options that would change the CIDs. */
function checkImportOptions(query: Query): void {
  const cidVersion = intOption(query, "cid-version");
  if (cidVersion !== null && cidVersion !== 0) {
    throw new IpfsRequestError(`cid-version=${cidVersion} is not supported by this node; it adds with Kubo's defaults (CIDv0)`);
  }
  if (boolOption(query, "raw-leaves", false)) throw new IpfsRequestError("raw-leaves is not supported by this node (Kubo's CIDv0 default is off)");
  const chunker = query.get("chunker");
  if (chunker !== null && chunker !== "" && chunker !== `size-${KUBO_CHUNK_SIZE}`) {
    throw new IpfsRequestError(`chunker ${chunker} is not supported by this node; only size-${KUBO_CHUNK_SIZE} (Kubo's default)`);
  }
  const hash = query.get("hash");
  if (hash !== null && hash !== "" && hash !== "sha2-256") throw new IpfsRequestError(`hash ${hash} is not supported by this node; only sha2-256`);
  if (boolOption(query, "trickle", false)) throw new IpfsRequestError("the trickle layout is not supported by this node");
}

async function handleAdd(ipfs: IpfsStore, req: IncomingMessage, res: ServerResponse, query: Query, maxBody: number): Promise<void> {
  checkImportOptions(query);
  const boundary = multipartBoundary(req.headers["content-type"]);
  const parts = parseMultipart(await readLimitedBody(req, maxBody), boundary);
  const files = parts.filter((p) => !p.isDirectory).map((p) => ({ path: p.filename, content: p.content }));
  const directories = parts.filter((p) => p.isDirectory && p.filename !== "").map((p) => p.filename);
  if (files.length === 0 && directories.length === 0) throw new IpfsRequestError("file argument 'path' is required");
  const entries = await ipfs.addAll(files, {
    pin: boolOption(query, "pin", true),
    wrapWithDirectory: boolOption(query, "wrap-with-directory", false),
    onlyHash: boolOption(query, "only-hash", false),
    directories,
  });
  const quieter = boolOption(query, "quieter", false);
  const shown = quieter ? entries.slice(-1) : entries;
  // Kubo streams one JSON object per line; Size is a decimal string.
  const body = shown.map((e) => JSON.stringify({ Name: e.name, Hash: e.cid, Size: String(e.size) })).join("\n") + "\n";
  res.writeHead(200, { "Content-Type": "application/json", "X-Chunked-Output": "1", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

async function handleCat(ipfs: IpfsStore, res: ServerResponse, query: Query): Promise<void> {
  const args = requiredArgs(query, "ipfs-path");
  let offset = intOption(query, "offset") ?? 0;
  const length = intOption(query, "length");
  if (offset < 0) throw new IpfsRequestError("cannot specify negative offset");
  if (length !== null && length < 0) throw new IpfsRequestError("cannot specify negative length");
  const out: Uint8Array[] = [];
  let remaining = length ?? Number.POSITIVE_INFINITY;
  for (const arg of args) {
    const bytes = await ipfs.cat(arg);
    if (bytes === null) throw new IpfsNotFoundAt(arg);
    // Kubo applies offset across the concatenation of all arguments, then length.
    if (offset >= bytes.length) {
      offset -= bytes.length;
      continue;
    }
    const slice = bytes.subarray(offset, Math.min(bytes.length, offset + remaining));
    offset = 0;
    out.push(slice);
    remaining -= slice.length;
    if (remaining <= 0) break;
  }
  const body = Buffer.concat(out);
  res.writeHead(200, { "Content-Type": "text/plain", "X-Stream-Output": "1", "X-Content-Length": String(body.length), "Content-Length": body.length });
  res.end(body);
}

/** `cat` of content this node does not hold: Kubo (offline) answers with the root CID it misses. */
class IpfsNotFoundAt extends IpfsError {
  override readonly name = "IpfsNotFoundAt";
  constructor(path: string) {
    const cid = path.replace(/^\/?ipfs\//, "").split("/")[0] ?? path;
    super(`block was not found locally (offline): ipld: could not find ${cid}`, 0, 500, { details: { path } });
  }
}

async function handlePinAdd(ipfs: IpfsStore, res: ServerResponse, query: Query): Promise<void> {
  const args = requiredArgs(query, "ipfs-path");
  const pinned: string[] = [];
  for (const arg of args) {
    try {
      await ipfs.pin(arg);
    } catch (error) {
      if (error instanceof IpfsError) throw new IpfsError(`pin: ${error.message}`, error.kuboCode, error.httpStatus, { cause: error });
      throw error;
    }
    pinned.push(arg.replace(/^\/?ipfs\//, ""));
  }
  sendJson(res, 200, { Pins: pinned });
}

async function handleBlockGet(ipfs: IpfsStore, res: ServerResponse, query: Query): Promise<void> {
  const [arg] = requiredArgs(query, "cid");
  const bytes = await ipfs.getBlock(arg!);
  if (bytes === null) throw new IpfsNotFoundAt(arg!);
  res.writeHead(200, { "Content-Type": "text/plain", "X-Stream-Output": "1", "Content-Length": bytes.length });
  res.end(bytes);
}

type Route = (req: IncomingMessage, res: ServerResponse, query: Query) => Promise<void>;

/**
 * Kubo's CSRF rules for its RPC API (go-ipfs-cmds): an Origin, or the origin of a Referer, must be one
 * of this port's loopback origins; a POST from a browser (User-Agent "Mozilla...") must carry one of them.
 */
function kuboAllows(req: IncomingMessage, port: number): boolean {
  const allowed = new Set(["http", "https"].flatMap((scheme) => ["127.0.0.1", "[::1]", "localhost"].map((host) => `${scheme}://${host}:${port}`)));
  const origin = req.headers.origin;
  if (origin !== undefined && !allowed.has(origin)) return false;
  const referer = req.headers.referer;
  if (referer !== undefined) {
    let refererOrigin: string;
    try {
      const url = new URL(referer);
      refererOrigin = `${url.protocol}//${url.host}`;
    } catch {
      return false;
    }
    if (!allowed.has(refererOrigin)) return false;
  }
  if (origin === undefined && referer === undefined) {
    const agent = req.headers["user-agent"] ?? "";
    if (agent.startsWith("Mozilla") && !agent.includes("Electron")) return false;
  }
  return true;
}

export async function createIpfsServer(options: IpfsServerOptions): Promise<RunningServer> {
  const { ipfs } = options;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const onError = options.onError ?? ((error: unknown) => console.error(`ipfs server: ${describeError(error)}`));
  // A Map, so a command such as `constructor` or `__proto__` is unknown, not an Object method.
  const routes = new Map<string, Route>([
    ["add", (req, res, query) => handleAdd(ipfs, req, res, query, maxBody)],
    ["cat", (_req, res, query) => handleCat(ipfs, res, query)],
    ["pin/add", (_req, res, query) => handlePinAdd(ipfs, res, query)],
    ["block/get", (_req, res, query) => handleBlockGet(ipfs, res, query)],
    ["version", async (_req, res) => sendJson(res, 200, VERSION_INFO)],
  ]);
  let port = 0;

  const running = await serve(async (req, res, url) => {
    const command = url.pathname.startsWith("/api/v0/") ? url.pathname.slice("/api/v0/".length).replace(/\/$/, "") : null;
    const route = command === null ? undefined : routes.get(command);
    if (route === undefined) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("404 page not found\n");
      return;
    }
    // Kubo's RPC API is POST-only (a CSRF guard); GET gets 405.
    if (req.method !== "POST") {
      res.writeHead(405, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("405 - Method Not Allowed\n");
      return;
    }
    if (!kuboAllows(req, port)) {
      res.writeHead(403, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("403 - Forbidden\n");
      return;
    }
    try {
      await route(req, res, url.searchParams);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        throw error;
      }
      if (error instanceof IpfsError) sendError(res, error);
      else {
        onError(error, { method: req.method, path: url.pathname });
        sendJson(res, 500, { Message: error instanceof Error ? error.message : String(error), Code: 0, Type: "error" });
      }
      // Drain what the client is still sending so it receives the answer.
      req.resume();
    }
  }, { port: options.port, loopbackOnly: true, onError });
  port = running.port;
  return running;
}
