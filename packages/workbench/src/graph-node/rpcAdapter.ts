// A JSON-RPC pass-through that lets graph-node's eth_call reach Hardhat 3's node (EDR). Two requests of
// graph-node v0.45 are refused there, and graph-node then retries and restarts its block stream forever
// (healthy, never advancing):
// - the call object carries both `input` and `data` (EDR: "duplicate field `data`"): only `input` is kept;
// - gas is 50,000,000 (hard-coded in graph-node), above the 16,777,216 per-transaction cap of EIP-7825
//   that EDR enforces: it is lowered to the cap.
// Everything else passes through byte for byte.
import { readText, sendJson, serve, type RunningServer } from "../lib/http/index.js";
import { maskUrl } from "../lib/redact.js";

/** EIP-7825's per-transaction gas cap (2^24). */
export const TRANSACTION_GAS_CAP = 16_777_216n;

const CALL_METHODS = new Set(["eth_call", "eth_estimateGas", "eth_createAccessList"]);

export interface RpcAdapterOptions {
  /** The chain's JSON-RPC URL. */
  target: string;
  /** 0 (default): a free port. */
  port?: number;
  /** 127.0.0.1 unless graph-node runs in a sibling container. */
  host?: string;
  /** Largest request body accepted (default 16 MiB). */
  maxBytes?: number;
}

interface RpcRequest {
  method?: unknown;
  params?: unknown;
}

/** Rewrites the call object of one eth_call-like request in place; returns whether it changed. */
export function adaptCallRequest(request: RpcRequest): boolean {
  if (typeof request.method !== "string" || !CALL_METHODS.has(request.method) || !Array.isArray(request.params)) return false;
  const call = request.params[0] as Record<string, unknown> | undefined;
  if (!call || typeof call !== "object") return false;
  let changed = false;
  if (call.input !== undefined && call.data !== undefined) {
    delete call.data;
    changed = true;
  }
  if (typeof call.gas === "string" && /^0x[0-9a-f]+$/i.test(call.gas) && BigInt(call.gas) > TRANSACTION_GAS_CAP) {
    call.gas = `0x${TRANSACTION_GAS_CAP.toString(16)}`;
    changed = true;
  }
  return changed;
}

export function startRpcAdapter(options: RpcAdapterOptions): Promise<RunningServer> {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  return serve(
    async (req, res) => {
      const text = await readText(req, { maxBytes });
      let body = text;
      try {
        const parsed = JSON.parse(text) as RpcRequest | RpcRequest[];
        const requests = Array.isArray(parsed) ? parsed : [parsed];
        if (requests.map(adaptCallRequest).some(Boolean)) body = JSON.stringify(parsed);
      } catch {
        // Not JSON: the chain answers it with its own parse error.
      }
      let upstream: Response;
      try {
        upstream = await fetch(options.target, { method: "POST", headers: { "content-type": "application/json" }, body });
      } catch (error) {
        sendJson(res, 502, { jsonrpc: "2.0", id: null, error: { code: -32603, message: `the chain at ${maskUrl(options.target)} did not answer: ${error instanceof Error ? error.message : String(error)}` } });
        return;
      }
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    },
    { port: options.port, host: options.host },
  );
}
