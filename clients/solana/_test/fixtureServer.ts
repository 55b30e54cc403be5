// A loopback JSON-RPC server that answers getAccountInfo and getMultipleAccounts the way Agave documents:
// defaults (getAccountInfo: bare base58 string; getMultipleAccounts: base64), every encoding (zstd really
// compressed), nulls for missing accounts, request order, batches, and the error codes and texts.
import { createServer, type Server } from "node:http";
import bs58 from "bs58";
import {
  ENCODINGS,
  RpcFailureError,
  SLICE_WITH_JSON_PARSED,
  checkEncodable,
  encodeAccount,
  type DataSlice,
  type FixtureAccount,
  type RpcFailure,
  type WireEncoding,
} from "./agaveEncoding.js";
import { listen, readText } from "subgraph-workbench/lib/http";

export type { FixtureAccount } from "./agaveEncoding.js";

export const MAX_MULTIPLE_ACCOUNTS = 100;

export type SolanaFixtureServerOptions = {
  accounts: ReadonlyMap<string, FixtureAccount>;
  slot?: number;
  /** Added before every HTTP answer (benchmarks). */
  latencyMs?: number;
};

export type SolanaFixtureServer = {
  url: string;
  /** HTTP requests served so far. */
  readonly httpRequests: number;
  /** JSON-RPC calls served so far (a batch counts each call). */
  readonly calls: number;
  /** Method names in the order served. */
  readonly methods: string[];
  /** Most HTTP requests open at the same time so far. */
  readonly maxConcurrent: number;
  close(): Promise<void>;
};

const API_VERSION = "2.2.0";

const invalidParams = (message: string): RpcFailure => ({ code: -32602, message });

/** Pubkey::from_str: over 44 characters or not 32 bytes is WrongSize, bad base58 is Invalid. */
function verifyPubkey(input: unknown): void {
  if (typeof input !== "string") throw new RpcFailureError(invalidParams("Invalid params: invalid type: expected a string."));
  if (input.length > 44) throw new RpcFailureError(invalidParams("Invalid param: WrongSize"));
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(input);
  } catch {
    throw new RpcFailureError(invalidParams("Invalid param: Invalid"));
  }
  if (bytes.length !== 32) throw new RpcFailureError(invalidParams("Invalid param: WrongSize"));
}

type Config = { encoding: WireEncoding | undefined; dataSlice: DataSlice | undefined };

function parseConfig(raw: unknown): Config {
  if (raw === undefined || raw === null) return { encoding: undefined, dataSlice: undefined };
  if (typeof raw !== "object" || Array.isArray(raw)) throw new RpcFailureError(invalidParams("Invalid params: invalid type: expected struct RpcAccountInfoConfig."));
  const c = raw as Record<string, unknown>;
  let encoding: WireEncoding | undefined;
  if (c.encoding !== undefined && c.encoding !== null) {
    if (typeof c.encoding !== "string" || !ENCODINGS.includes(c.encoding as WireEncoding)) {
      const variants = ENCODINGS.map((e) => `\`${e}\``).join(", ");
      throw new RpcFailureError(invalidParams(`Invalid params: unknown variant \`${String(c.encoding)}\`, expected one of ${variants}.`));
    }
    encoding = c.encoding as WireEncoding;
  }
  let dataSlice: DataSlice | undefined;
  if (c.dataSlice !== undefined && c.dataSlice !== null) {
    const s = c.dataSlice as Record<string, unknown>;
    if (!Number.isInteger(s.offset) || !Number.isInteger(s.length) || (s.offset as number) < 0 || (s.length as number) < 0) {
      throw new RpcFailureError(invalidParams("Invalid params: invalid type: expected struct UiDataSliceConfig."));
    }
    dataSlice = { offset: s.offset as number, length: s.length as number };
  }
  return { encoding, dataSlice };
}

function handleCall(method: unknown, params: unknown, options: SolanaFixtureServerOptions, slot: number): unknown {
  const args = Array.isArray(params) ? params : params === undefined ? [] : null;
  if (args === null) throw new RpcFailureError(invalidParams("Invalid params: invalid type: map, expected a sequence."));
  const context = { apiVersion: API_VERSION, slot };
  switch (method) {
    case "getAccountInfo": {
      if (args.length < 1) throw new RpcFailureError(invalidParams("Invalid params: invalid length 0, expected at least 1 element."));
      verifyPubkey(args[0]);
      const config = parseConfig(args[1]);
      const encoding = config.encoding ?? "binary";
      checkSliceAndEncoding(encoding, config.dataSlice);
      const account = options.accounts.get(args[0] as string);
      return { context, value: account ? encodeAccount(account, encoding, config.dataSlice) : null };
    }
    case "getMultipleAccounts": {
      const keys = args[0];
      if (!Array.isArray(keys)) throw new RpcFailureError(invalidParams("Invalid params: invalid type: expected a sequence."));
      if (keys.length > MAX_MULTIPLE_ACCOUNTS) {
        throw new RpcFailureError(invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`));
      }
      for (const key of keys) verifyPubkey(key);
      const config = parseConfig(args[1]);
      const encoding = config.encoding ?? "base64";
      checkSliceAndEncoding(encoding, config.dataSlice);
      const accounts = keys.map((key) => options.accounts.get(key as string));
      // One account that cannot be encoded fails the whole request.
      for (const account of accounts) if (account) checkEncodable(account, encoding, config.dataSlice);
      return { context, value: accounts.map((a) => (a ? encodeAccount(a, encoding, config.dataSlice) : null)) };
    }
    default:
      throw new RpcFailureError({ code: -32601, message: "Method not found" });
  }
}

/** Agave refuses a slice with jsonParsed before it looks any account up. */
function checkSliceAndEncoding(encoding: WireEncoding, dataSlice: DataSlice | undefined): void {
  if (encoding === "jsonParsed" && dataSlice) throw new RpcFailureError(SLICE_WITH_JSON_PARSED);
}

// u64 fields are bigint; JSON.rawJSON writes them as exact integers.
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;
const stringify = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? rawJSON(v.toString()) : v));

function answer(request: unknown, options: SolanaFixtureServerOptions, slot: number, methods: string[]): unknown {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request" } };
  }
  const r = request as Record<string, unknown>;
  const id = r.id ?? null;
  if (r.jsonrpc !== "2.0" || typeof r.method !== "string") return { jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid request" } };
  methods.push(r.method);
  try {
    return { jsonrpc: "2.0", result: handleCall(r.method, r.params, options, slot), id };
  } catch (error) {
    if (error instanceof RpcFailureError) return { jsonrpc: "2.0", error: error.failure, id };
    throw error;
  }
}

export async function startSolanaFixtureServer(options: SolanaFixtureServerOptions): Promise<SolanaFixtureServer> {
  const slot = options.slot ?? 341_197_053;
  const methods: string[] = [];
  let httpRequests = 0;
  let open = 0;
  let maxConcurrent = 0;
  const server: Server = createServer((req, res) => {
    open++;
    maxConcurrent = Math.max(maxConcurrent, open);
    res.on("close", () => open--);
    void readText(req).then((text) => {
      httpRequests++;
      let body: unknown;
      let reply: unknown;
      try {
        body = JSON.parse(text);
        if (Array.isArray(body)) {
          reply = body.length === 0 ? { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request" } } : body.map((r) => answer(r, options, slot, methods));
        } else {
          reply = answer(body, options, slot, methods);
        }
      } catch {
        reply = { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null };
      }
      const send = () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(stringify(reply));
      };
      if (options.latencyMs) setTimeout(send, options.latencyMs);
      else send();
    });
  });
  const running = await listen(server);
  return {
    url: running.url,
    get httpRequests() {
      return httpRequests;
    },
    get calls() {
      return methods.length;
    },
    methods,
    get maxConcurrent() {
      return maxConcurrent;
    },
    close: running.close,
  };
}
