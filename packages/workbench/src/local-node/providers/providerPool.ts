// The providers of one network behind one client: each request goes to the healthiest provider that has
// the block it asks about, within that provider's limits. A failure costs that one request: it is asked
// again at once on another provider (or, with one provider, after that provider's short jittered backoff);
// a rate limit pauses only its provider, for as long as Retry-After says; a batch element left out or
// answered with a transport error is asked again alone; a null for a block the chain has is a provider
// behind, asked again; and a request far slower than its method's usual answer is sent a second time,
// the first answer winning. Only a range too large or a real error reaches the caller, or, when no provider
// answers for `giveUpAfterMs`, a ProvidersUnavailableError that says what each one did.
import { BaseError, withDetailLine } from "../../lib/errors.js";
import type { BatchEntry } from "../../json-rpc/index.js";
import { classifyRpcError, type ErrorKind } from "./errorKinds.js";
import { Provider, type ProviderSpec, type ProviderStatus, type ProviderTuning } from "./provider.js";

export interface PoolCall {
  method: string;
  params: unknown[];
}

export interface ProviderPoolOptions {
  network: string;
  providers: ProviderSpec[];
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Calls per batch POST at most (default 100). */
  maxBatchSize?: number;
  /** With no provider answering, a request fails after this long (default 60 s). */
  giveUpAfterMs?: number;
  /** Send a request again once it took this many times its method's usual time (default 4; 0 turns hedging off). */
  hedgeFactor?: number;
  /** Never hedge sooner than this (default 250 ms). */
  hedgeMinMs?: number;
  tuning?: Partial<Omit<ProviderTuning, "timeoutMs" | "maxResponseBytes">>;
  log?: (level: "debug" | "info" | "warning", message: string) => void;
}

export interface PoolStats {
  requests: number;
  retried: number;
  hedged: number;
  hedgesWon: number;
  nullsAskedAgain: number;
  batchElementsAskedAgain: number;
}

export interface ProviderPool {
  readonly network: string;
  /** The providers' masked URLs, for a log line. */
  readonly displayUrl: string;
  request<T = unknown>(method: string, params: unknown[]): Promise<T>;
  batch<T = unknown>(calls: PoolCall[]): Promise<T[]>;
  providers(): ProviderStatus[];
  readonly stats: PoolStats;
}

/** No provider of the network answered in time; the message says what each did last. */
export class ProvidersUnavailableError extends BaseError {
  override name = "ProvidersUnavailableError";
}

/** A null where the chain has an answer: the provider is behind. */
class NullAnswer extends Error {}

const HEX = /^0x[0-9a-f]+$/i;
// Asked only about things the indexer saw exist: null means the provider has not got them yet.
const NEVER_NULL = new Set(["eth_getBlockByHash", "eth_getTransactionByHash", "eth_getTransactionReceipt"]);
// A null is asked again this many times before it is believed (a chain that really shrank).
const NULL_TRIES = 8;

function blockParam(call: PoolCall): number | null {
  const [a] = call.params;
  const hex = (v: unknown) => (typeof v === "string" && HEX.test(v) ? Number.parseInt(v, 16) : null);
  switch (call.method) {
    case "eth_getBlockByNumber":
      return hex(a);
    case "eth_call":
    case "eth_getBalance":
    case "eth_getCode":
    case "eth_getStorageAt":
      return hex(call.params.at(-1));
    case "eth_getLogs":
      return typeof a === "object" && a !== null ? hex((a as Record<string, unknown>).toBlock) : null;
    default:
      return null;
  }
}

function describe(err: unknown): string {
  if (err instanceof BaseError) return err.shortMessage;
  return err instanceof Error ? err.message : String(err);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref?.());

export function createProviderPool(options: ProviderPoolOptions): ProviderPool {
  if (options.providers.length === 0) throw new ProvidersUnavailableError(`network ${options.network} has no provider`);
  const tuning: ProviderTuning = {
    timeoutMs: options.timeoutMs ?? 30_000,
    ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
    skipAfterFailures: 5,
    skipForMs: 30_000,
    backoffBaseMs: 100,
    backoffMaxMs: 5_000,
    random: Math.random,
    ...options.tuning,
  };
  const providers = options.providers.map((spec) => new Provider(spec, tuning));
  const maxBatch = Math.max(1, options.maxBatchSize ?? 100);
  const giveUpAfter = options.giveUpAfterMs ?? 60_000;
  const hedgeFactor = options.hedgeFactor ?? 4;
  const hedgeMin = options.hedgeMinMs ?? 250;
  const log = options.log ?? (() => {});
  const stats: PoolStats = { requests: 0, retried: 0, hedged: 0, hedgesWon: 0, nullsAskedAgain: 0, batchElementsAskedAgain: 0 };
  // The highest head any provider reported: a block at or below it exists.
  let knownHead = -1;
  // The usual answer time of each method, over all providers (for the first requests of a provider).
  const typical = new Map<string, number>();

  const servesMethod = (p: Provider, method: string) => !p.spec.callOnly || method === "eth_call";

  /** The healthiest provider that may take the call now, or the time the first one may. */
  function pick(method: string, block: number | null, exclude: ReadonlySet<Provider>): Provider | number {
    const now = Date.now();
    const fit = providers.filter((p) => servesMethod(p, method) && !exclude.has(p));
    if (fit.length === 0) return Number.POSITIVE_INFINITY;
    // Providers known to lack the block are asked only when none has it (they then say "wait").
    const ahead = block === null ? fit : fit.filter((p) => !p.isBehind(block, now));
    const pool = ahead.length > 0 ? ahead : fit;
    const ready = pool.filter((p) => p.availableAt(now) <= now);
    if (ready.length === 0) return Math.min(...pool.map((p) => p.availableAt(now)));
    const load = (p: Provider) => (p.limiter.inFlight + p.limiter.waiting) / (p.spec.maxConcurrent ?? 32);
    const score = (p: Provider) => load(p) * 4 + p.consecutiveFailures + (p.typicalMs(method) ?? 0) / 1_000;
    return ready.reduce((best, p) => (score(p) < score(best) ? p : best));
  }

  function noteFailure(p: Provider, kind: ErrorKind, err: unknown, retryAfterMs: number | null): void {
    const why = `${kind === "rate" ? "rate limited" : kind}: ${describe(err)}`;
    const skipped = p.noteFailure(kind, why, retryAfterMs, Date.now());
    if (skipped) log("warning", `${options.network}: provider ${p.label} is skipped for a while after ${p.consecutiveFailures} failures in a row (last: ${why})`);
  }

  function noteSuccess(p: Provider, key: string, ms: number): void {
    if (p.skippedUntil > 0) log("info", `${options.network}: provider ${p.label} answers again`);
    p.noteSuccess(key, ms);
    const before = typical.get(key);
    typical.set(key, before === undefined ? ms : before * 0.8 + ms * 0.2);
  }

  /** One send on one provider, within its limits. */
  async function sendOn<R>(p: Provider, key: string, send: (p: Provider, signal: AbortSignal) => Promise<R>, signal: AbortSignal): Promise<R> {
    if (p.skippedUntil > 0) p.probing = true;
    const release = await p.limiter.acquire(signal);
    const started = Date.now();
    try {
      const result = await send(p, signal);
      noteSuccess(p, key, Date.now() - started);
      return result;
    } finally {
      release();
    }
  }

  /**
   * Sends on `first`, and once that takes far longer than the method's usual time, a second copy on
   * another ready provider (or the same one when it is the only one); the first answer wins, the other is
   * abandoned. Rejects with [provider, error] of a failed attempt when both failed (or the only one did).
   */
  function hedged<R>(first: Provider, method: string, block: number | null, key: string, send: (p: Provider, signal: AbortSignal) => Promise<R>): Promise<{ result: R; by: Provider }> {
    return new Promise((resolve, reject) => {
      const controllers: AbortController[] = [];
      let pending = 0;
      let done = false;
      let timer: ReturnType<typeof setTimeout> | null = null;
      const finish = () => {
        done = true;
        if (timer) clearTimeout(timer);
      };
      const start = (p: Provider, isHedge: boolean) => {
        const controller = new AbortController();
        controllers.push(controller);
        pending++;
        sendOn(p, key, send, controller.signal).then(
          (result) => {
            pending--;
            if (done) return;
            finish();
            if (isHedge) stats.hedgesWon++;
            for (const c of controllers) if (c !== controller) c.abort(new Error("another answer won"));
            resolve({ result, by: p });
          },
          (err: unknown) => {
            pending--;
            if (done) return;
            // A failure with no other copy in flight goes back to run(), which asks the next provider.
            if (pending === 0) {
              finish();
              reject([p, err]);
            } else {
              // The other copy may still answer; this failure is noted all the same.
              const c = classifyRpcError(err);
              if (c.kind !== "range" && c.kind !== "fatal") noteFailure(p, c.kind, err, c.retryAfterMs);
            }
          },
        );
      };
      start(first, false);
      const usual = first.typicalMs(key) ?? typical.get(key);
      if (hedgeFactor <= 0 || usual === undefined) return;
      timer = setTimeout(() => {
        timer = null;
        if (done) return;
        const other = pick(method, block, new Set([first]));
        const target = typeof other === "number" ? (first.availableAt(Date.now()) <= Date.now() ? first : null) : other;
        if (!target) return;
        stats.hedged++;
        log("debug", `${options.network}: ${method} on ${first.label} takes longer than ${Math.round(Math.max(hedgeMin, usual * hedgeFactor))} ms; sent again to ${target.label}`);
        start(target, true);
      }, Math.max(hedgeMin, usual * hedgeFactor));
      timer.unref?.();
    });
  }

  /**
   * Runs `send` until a provider answers, retrying each failure that is not the caller's on the next
   * provider. `check` turns an answer into a NullAnswer where it is a provider behind.
   */
  async function run<R>(method: string, block: number | null, key: string, send: (p: Provider, signal: AbortSignal) => Promise<R>, check?: (result: R) => boolean): Promise<R> {
    stats.requests++;
    const deadline = Date.now() + giveUpAfter;
    let nulls = 0;
    for (let attempt = 0; ; attempt++) {
      const chosen = pick(method, block, new Set());
      if (typeof chosen === "number") {
        if (Date.now() >= deadline) throw unavailable();
        // Everyone rests or backs off: wait for the first to come back (never past the deadline).
        await sleep(Math.min(chosen - Date.now(), deadline - Date.now(), 1_000));
        continue;
      }
      if (attempt > 0) stats.retried++;
      try {
        const { result, by } = await hedged(chosen, method, block, key, send);
        if (check && !check(result)) {
          if (++nulls >= NULL_TRIES) return result;
          stats.nullsAskedAgain++;
          if (block !== null) by.noteLacks(block, Date.now());
          // Another provider may have it; the same one, a moment later.
          if (pick(method, block, new Set()) === by || providers.length === 1) await sleep(50 * nulls);
          continue;
        }
        return result;
      } catch (failure) {
        const [p, err] = Array.isArray(failure) ? (failure as [Provider, unknown]) : [chosen, failure];
        const c = classifyRpcError(err);
        if (c.kind === "range" || c.kind === "fatal") throw err;
        if (c.kind === "behind" && block !== null) p.noteLacks(block, Date.now());
        noteFailure(p, c.kind, err, c.retryAfterMs);
        if (Date.now() >= deadline) throw unavailable(err);
        if (c.kind === "behind" && providers.length === 1) await sleep(100);
      }
    }
  }

  function unavailable(cause?: unknown): ProvidersUnavailableError {
    const now = Date.now();
    const each = providers.map((p) => {
      const s = p.status(now);
      return `${s.label} (${s.url}): ${s.state}${s.reason ? `, ${s.reason}` : ""}`;
    });
    const short = `no provider of ${options.network} answered for ${Math.round(giveUpAfter / 1000)} s`;
    return new ProvidersUnavailableError(short, withDetailLine(short, { detail: each.join("; "), cause }));
  }

  const missingAnswer = (call: PoolCall, result: unknown): boolean => {
    if (result !== null && result !== undefined) return false;
    if (NEVER_NULL.has(call.method)) return true;
    const block = call.method === "eth_getBlockByNumber" ? blockParam(call) : null;
    return block !== null && block <= knownHead;
  };

  async function request<T>(method: string, params: unknown[]): Promise<T> {
    const call = { method, params };
    const result = await run<unknown>(
      method,
      blockParam(call),
      method,
      async (p, signal) => {
        const answer = await p.client.request<unknown>(method, params, { signal });
        if (method === "eth_blockNumber" && typeof answer === "string" && HEX.test(answer)) {
          const head = Number.parseInt(answer, 16);
          p.noteHead(head);
          knownHead = Math.max(knownHead, head);
        }
        return answer;
      },
      (answer) => !missingAnswer(call, answer),
    );
    return (result ?? null) as T;
  }

  async function batchChunk<T>(calls: PoolCall[]): Promise<T[]> {
    if (calls.length === 1) return [await request<T>(calls[0]!.method, calls[0]!.params)];
    const blocks = calls.map(blockParam).filter((b): b is number => b !== null);
    const block = blocks.length > 0 ? Math.max(...blocks) : null;
    const method = calls[0]!.method;
    let entries: BatchEntry<unknown>[];
    try {
      entries = await run(method, block, `batch:${method}`, (p, signal) => p.client.batch<unknown>(calls, { signal }));
    } catch (err) {
      const kind = classifyRpcError(err).kind;
      // Refused as a whole: too large a batch, or no batches at all. Smaller ones, down to single calls.
      if (kind === "range" || kind === "fatal") {
        const half = Math.ceil(calls.length / 2);
        return [...(await batchChunk<T>(calls.slice(0, half))), ...(await batchChunk<T>(calls.slice(half)))];
      }
      throw err;
    }
    const out = new Array<T>(calls.length);
    let fatal: unknown = null;
    await Promise.all(
      entries.map(async (entry, i) => {
        const call = calls[i]!;
        if (entry.ok && !missingAnswer(call, entry.result)) {
          out[i] = (entry.result ?? null) as T;
          return;
        }
        if (!entry.ok) {
          const kind = classifyRpcError(entry.error).kind;
          if (kind === "fatal" || kind === "range") {
            fatal ??= entry.error;
            return;
          }
        }
        // Left out, answered with a transport error, or null for a block the chain has: asked alone.
        stats.batchElementsAskedAgain++;
        out[i] = await request<T>(call.method, call.params);
      }),
    );
    if (fatal) throw fatal;
    return out;
  }

  return {
    network: options.network,
    displayUrl: providers.map((p) => (providers.length > 1 ? `${p.label}=${p.url}` : p.url)).join(", "),
    stats,
    request,
    async batch<T>(calls: PoolCall[]): Promise<T[]> {
      const chunks: PoolCall[][] = [];
      for (let i = 0; i < calls.length; i += maxBatch) chunks.push(calls.slice(i, i + maxBatch));
      return (await Promise.all(chunks.map((c) => batchChunk<T>(c)))).flat();
    },
    providers: () => providers.map((p) => p.status(Date.now())),
  };
}
