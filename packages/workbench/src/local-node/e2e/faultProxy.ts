// A deliberately unreliable JSON-RPC provider in front of a real chain, for the e2e tests and
// `npm run bench:providers`: seeded (the same seed draws the same faults for the same sequence of
// requests), it answers a share of the requests with what hosted providers do on a bad day:
// - 429 with and without Retry-After, 500 and 503 pages;
// - a connection reset before the answer or in its middle; a truncated or empty 200 body;
// - a slow answer (held back, then correct);
// - a load-balanced backend one or two blocks behind: its head, null for the newest blocks and their
//   transactions and receipts, eth_getLogs past its head refused as geth does, eth_call "header not found";
// - batches answered with one element left out, one element rate limited (as Alchemy does per element),
//   or the elements reordered.
// Always on when set: an eth_getLogs range cap (reth's words) and a result cap (Infura's, with its hint).
// `dieAfter` requests (or kill()) make it a provider that died: connections refused from then on.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { listen, readText, type RunningServer } from "../../lib/http/index.js";
import { seededRandom } from "../../lib/seededRandom.js";

export type FaultKind =
  | "429"
  | "429-retry-after"
  | "500"
  | "503"
  | "reset-before"
  | "reset-during"
  | "truncated"
  | "empty"
  | "slow"
  | "behind"
  | "batch-missing"
  | "batch-element-429"
  | "batch-reordered";

export const FAULT_KINDS: readonly FaultKind[] = ["429", "429-retry-after", "500", "503", "reset-before", "reset-during", "truncated", "empty", "slow", "behind", "batch-missing", "batch-element-429", "batch-reordered"];

export interface FaultProfile {
  /** Share of requests faulted, 0 to 1. */
  rate: number;
  /** Relative weights (whole numbers) of the kinds dealt (every kind once per round unless set). */
  kinds?: Partial<Record<FaultKind, number>>;
  /** How long a slow answer is held back (default 3 s). */
  slowMs?: number;
  /** Seconds in a 429-retry-after's header (default 1). */
  retryAfterSeconds?: number;
  /** eth_getLogs over more blocks than this is refused (reth's words). */
  rangeCap?: number;
  /** eth_getLogs answers with more logs than this are refused (Infura's words, with a range that works). */
  resultCap?: number;
}

export interface FaultProxyOptions {
  target: string;
  seed: number;
  profile: FaultProfile;
  /** After this many requests the provider dies: connections are refused. */
  dieAfter?: number;
}

export interface FaultProxy {
  readonly url: string;
  /** Requests received (POSTs), calls by method (a batch's each), and faults injected by kind. */
  readonly counts: { requests: number; faults: Partial<Record<FaultKind | "range-cap" | "result-cap", number>>; methods: Record<string, number> };
  /** A new profile from the next request on (a new deck of kinds too). */
  setProfile(profile: FaultProfile): void;
  /** The provider dies: open connections are cut, new ones refused. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

type Call = { jsonrpc?: string; id?: unknown; method: string; params?: unknown[] };
type Answer = { jsonrpc: "2.0"; id: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };


const hex = (n: number) => `0x${n.toString(16)}`;
const num = (v: unknown) => (typeof v === "string" && /^0x[0-9a-f]+$/i.test(v) ? Number.parseInt(v, 16) : null);

async function forward(target: string, body: unknown): Promise<unknown> {
  const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return res.json();
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const random = seededRandom(options.seed);
  let profile = options.profile;
  const counts: FaultProxy["counts"] = { requests: 0, faults: {}, methods: {} };
  const count = (k: FaultKind | "range-cap" | "result-cap") => (counts.faults[k] = (counts.faults[k] ?? 0) + 1);
  let dead = false;
  const sockets = new Set<Socket>();

  // Which requests are faulted is drawn; which fault is dealt in turn from a seeded shuffle of the kinds
  // (each as often as its weight), so that every kind comes up within a few dozen faulted requests. A batch
  // deck deals the batch-only kinds first: batches are few (a catch-up sends far more single calls), and
  // behind a full shuffle of all the kinds a batch kind could go undealt in a short run.
  function shuffled(kinds: FaultKind[]): FaultKind[] {
    const cards = kinds.flatMap((k) => Array.from({ length: Math.round(profile.kinds ? (profile.kinds[k] ?? 0) : 1) }, () => k));
    for (let i = cards.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [cards[i], cards[j]] = [cards[j]!, cards[i]!];
    }
    return cards;
  }
  function deck(batch: boolean): FaultKind[] {
    const batchOnly = FAULT_KINDS.filter((k) => k.startsWith("batch-"));
    const any = FAULT_KINDS.filter((k) => !k.startsWith("batch-"));
    return batch ? [...shuffled(batchOnly), ...shuffled(any)] : shuffled(any);
  }
  const decks = { batch: { cards: [] as FaultKind[], at: 0 }, single: { cards: [] as FaultKind[], at: 0 } };

  function draw(batch: boolean): FaultKind | null {
    if (random() >= profile.rate) return null;
    const d = batch ? decks.batch : decks.single;
    if (d.at >= d.cards.length) {
      d.cards = deck(batch);
      d.at = 0;
    }
    return d.cards[d.at++] ?? null;
  }

  const error = (id: unknown, code: number, message: string, data?: unknown): Answer => ({ jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } });

  /** One call answered by the chain, with the caps applied, as a backend `lag` blocks behind when lag > 0. */
  async function answerCall(call: Call, lag: number, head: number): Promise<Answer> {
    const id = call.id ?? null;
    const params = call.params ?? [];
    const seen = head - lag;
    if (call.method === "eth_getLogs" && typeof params[0] === "object" && params[0] !== null) {
      const filter = params[0] as Record<string, unknown>;
      const from = num(filter.fromBlock);
      const to = num(filter.toBlock);
      if (from !== null && to !== null) {
        if (lag > 0 && to > seen) return error(id, -32602, "block range extends beyond current head block");
        if (profile.rangeCap && to - from + 1 > profile.rangeCap) {
          count("range-cap");
          return error(id, -32602, `query exceeds max block range ${profile.rangeCap}`);
        }
      }
      const answer = (await forward(options.target, { ...call, id })) as Answer;
      if (profile.resultCap && Array.isArray(answer.result) && answer.result.length > profile.resultCap && from !== null) {
        count("result-cap");
        // Infura's hint: a range whose logs fit, from the asked fromBlock.
        const last = num((answer.result[profile.resultCap] as Record<string, unknown>).blockNumber) ?? from + 1;
        const end = Math.max(from, last - 1);
        return error(id, -32005, `query returned more than ${profile.resultCap} results. Try with this block range [${hex(from)}, ${hex(end)}].`, { from: hex(from), limit: profile.resultCap, to: hex(end) });
      }
      return answer;
    }
    if (lag > 0) {
      if (call.method === "eth_blockNumber") return { jsonrpc: "2.0", id, result: hex(seen) };
      if (call.method === "eth_getBlockByNumber") {
        const n = num(params[0]);
        if (n !== null && n > seen) return { jsonrpc: "2.0", id, result: null };
      }
      if (call.method === "eth_call" || call.method === "eth_getBalance" || call.method === "eth_getCode") {
        const n = num(params.at(-1));
        if (n !== null && n > seen) return error(id, -32000, "header not found");
      }
    }
    const answer = (await forward(options.target, { ...call, id })) as Answer;
    if (lag > 0 && answer.result && typeof answer.result === "object" && ["eth_getBlockByHash", "eth_getTransactionByHash", "eth_getTransactionReceipt"].includes(call.method)) {
      const n = num((answer.result as Record<string, unknown>).blockNumber ?? (answer.result as Record<string, unknown>).number);
      if (n !== null && n > seen) return { jsonrpc: "2.0", id, result: null };
    }
    return answer;
  }

  async function chainHead(): Promise<number> {
    const answer = (await forward(options.target, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] })) as Answer;
    return num(answer.result) ?? 0;
  }

  function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers }).end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readText(req);
    counts.requests++;
    if (options.dieAfter !== undefined && counts.requests > options.dieAfter && !dead) void kill();
    if (dead) {
      res.socket?.destroy();
      return;
    }
    let body: Call | Call[];
    try {
      body = JSON.parse(text) as Call | Call[];
    } catch {
      return writeJson(res, 200, error(null, -32700, "Parse error"));
    }
    const batch = Array.isArray(body);
    const calls: Call[] = Array.isArray(body) ? body : [body];
    for (const c of calls) counts.methods[c.method] = (counts.methods[c.method] ?? 0) + 1;
    const fault = draw(batch && calls.length > 1);
    if (fault) count(fault);
    const firstId = calls[0]?.id ?? null;
    switch (fault) {
      case "429":
        return writeJson(res, 429, error(firstId, 429, "Your app has exceeded its compute units per second capacity."));
      case "429-retry-after":
        return writeJson(res, 429, error(firstId, -32005, "project ID request rate exceeded"), { "retry-after": String(profile.retryAfterSeconds ?? 1) });
      case "500":
        res.writeHead(500, { "content-type": "text/html" }).end("<html><body>500 Internal Server Error</body></html>");
        return;
      case "503":
        res.writeHead(503, { "content-type": "text/html" }).end("<html><body>503 Service Temporarily Unavailable</body></html>");
        return;
      case "reset-before":
        req.socket.destroy();
        return;
      default:
        break;
    }
    const lag = fault === "behind" ? 1 + Math.floor(random() * 2) : 0;
    const head = lag > 0 ? await chainHead() : 0;
    let answers = await Promise.all(calls.map((c) => answerCall(c, lag, head)));
    if (fault === "batch-missing") answers.splice(Math.floor(random() * answers.length), 1);
    if (fault === "batch-element-429") {
      const at = Math.floor(random() * answers.length);
      answers[at] = error(answers[at]!.id, 429, "Your app has exceeded its compute units per second capacity.");
    }
    if (fault === "batch-reordered") answers = answers.map((a) => [random(), a] as const).sort((x, y) => x[0] - y[0]).map(([, a]) => a);
    const out = JSON.stringify(batch ? answers : answers[0]);
    switch (fault) {
      case "reset-during": {
        // Headers and half the body, then the connection drops.
        res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(out)) });
        res.write(out.slice(0, Math.floor(out.length / 2)));
        setTimeout(() => res.socket?.destroy(), 5);
        return;
      }
      case "truncated":
        // A body that ends early but cleanly (chunked, no length): not JSON.
        res.writeHead(200, { "content-type": "application/json" }).end(out.slice(0, Math.max(1, Math.floor(out.length * random()))));
        return;
      case "empty":
        res.writeHead(200, { "content-type": "application/json", "content-length": "0" }).end();
        return;
      case "slow":
        await new Promise((resolve) => setTimeout(resolve, profile.slowMs ?? 3_000));
        break;
      default:
        break;
    }
    if (!res.destroyed) res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(out)) }).end(out);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    if (dead) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const running: RunningServer = await listen(server);

  async function kill(): Promise<void> {
    if (dead) return;
    dead = true;
    for (const s of sockets) s.destroy();
    // Refused from now on, as a stopped process's port is.
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  return {
    url: running.url,
    counts,
    setProfile(p) {
      profile = p;
      decks.batch.at = decks.batch.cards.length;
      decks.single.at = decks.single.cards.length;
    },
    kill,
    async close() {
      if (!dead) await running.close().catch(() => {});
      dead = true;
    },
  };
}
