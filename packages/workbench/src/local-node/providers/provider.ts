// One provider of a network: its JSON-RPC client, its sending limits, and its health. Backoff belongs to the
// provider and resets when it answers again; one that keeps failing is skipped for a while and then probed
// with a single request. Its head is what it last said, and a block it lacked marks it behind until then.
import { createJsonRpcClient, type JsonRpcClient } from "../../json-rpc/index.js";
import type { ErrorKind } from "./errorKinds.js";
import { createLimiter, type Limiter } from "./limiter.js";

export interface ProviderSpec {
  /** graph-node's provider label (or `<network>-rpc-<n>` for a command-line entry). */
  label: string;
  /** May carry a key: only ever shown masked. */
  url: string;
  /** graph-node's features (`archive`, `traces`, ...). */
  features: string[];
  headers?: Record<string, string>;
  /** graph-node's `web3call`: only eth_call goes to it. */
  callOnly?: boolean;
  maxConcurrent?: number;
  requestsPerSecond?: number;
}

export interface ProviderTuning {
  /** Milliseconds before a request is abandoned (default 30 s). */
  timeoutMs: number;
  maxResponseBytes?: number;
  /** Consecutive failures after which the provider is skipped (default 5). */
  skipAfterFailures: number;
  /** How long a skipped provider rests before one probe (default 30 s). */
  skipForMs: number;
  /** First backoff after a failure, doubled per consecutive failure with full jitter (default 100 ms). */
  backoffBaseMs: number;
  /** The largest backoff (default 5 s). */
  backoffMaxMs: number;
  /** Random in [0, 1): the jitter; seeded in tests. */
  random: () => number;
}

export type ProviderState = "ok" | "backing off" | "skipped";

export interface ProviderStatus {
  label: string;
  url: string;
  state: ProviderState;
  /** Why it is backing off or skipped. */
  reason: string | null;
  head: number | null;
  served: number;
  failed: number;
  consecutiveFailures: number;
  inFlight: number;
}

export class Provider {
  readonly client: JsonRpcClient;
  readonly limiter: Limiter;
  readonly url: string;
  head: number | null = null;
  /** The provider lacked this block (null or "not found"): it is behind it until it says otherwise. */
  lacks: { block: number; until: number } | null = null;
  served = 0;
  failed = 0;
  consecutiveFailures = 0;
  backoffUntil = 0;
  skippedUntil = 0;
  /** A skipped provider gets one request at a time once its rest is over. */
  probing = false;
  reason: string | null = null;
  /** Typical answer time by method, for hedging (an exponential average). */
  private readonly latency = new Map<string, number>();

  constructor(
    readonly spec: ProviderSpec,
    private readonly tuning: ProviderTuning,
  ) {
    this.client = createJsonRpcClient({
      url: spec.url,
      timeoutMs: tuning.timeoutMs,
      // Ethereum quantities are hex strings: no integer in an answer needs to stay exact.
      exactIntegers: false,
      ...(spec.headers ? { headers: spec.headers } : {}),
      ...(tuning.maxResponseBytes ? { maxResponseBytes: tuning.maxResponseBytes } : {}),
    });
    this.url = this.client.url;
    this.limiter = createLimiter({
      ...(spec.maxConcurrent ? { maxConcurrent: spec.maxConcurrent } : {}),
      ...(spec.requestsPerSecond ? { requestsPerSecond: spec.requestsPerSecond } : {}),
    });
  }

  get label(): string {
    return this.spec.label;
  }

  /** May take a request now: not resting, not backing off, and not already probing after a rest. */
  availableAt(now: number): number {
    if (this.skippedUntil > 0) return this.probing ? Number.POSITIVE_INFINITY : Math.max(this.skippedUntil, this.backoffUntil);
    return this.backoffUntil;
  }

  /** Known not to have block `n` yet. */
  isBehind(n: number, now: number): boolean {
    if (this.head !== null && this.head < n) return true;
    return this.lacks !== null && this.lacks.until > now && n >= this.lacks.block;
  }

  typicalMs(method: string): number | null {
    return this.latency.get(method) ?? null;
  }

  noteSuccess(method: string, ms: number): void {
    const before = this.latency.get(method);
    this.latency.set(method, before === undefined ? ms : before * 0.8 + ms * 0.2);
    this.served++;
    this.consecutiveFailures = 0;
    this.backoffUntil = 0;
    this.skippedUntil = 0;
    this.probing = false;
    this.reason = null;
  }

  noteHead(head: number): void {
    this.head = head;
    if (this.lacks && head >= this.lacks.block) this.lacks = null;
  }

  noteLacks(block: number, now: number): void {
    this.lacks = { block, until: now + 2_000 };
    if (this.head !== null && this.head >= block) this.head = block - 1;
  }

  /** Returns true when this failure made the provider skipped (for the log). */
  noteFailure(kind: ErrorKind, why: string, retryAfterMs: number | null, now: number): boolean {
    this.failed++;
    this.consecutiveFailures++;
    this.probing = false;
    this.reason = why;
    if (kind === "refused") {
      // A key refused for its plan or quota does not come back within seconds.
      this.skippedUntil = now + Math.max(this.tuning.skipForMs * 10, retryAfterMs ?? 0);
      return true;
    }
    // Full jitter: a random wait up to the doubled base, so that retries of many requests spread out.
    const ceiling = Math.min(this.tuning.backoffMaxMs, this.tuning.backoffBaseMs * 2 ** Math.min(this.consecutiveFailures - 1, 16));
    const wait = retryAfterMs ?? (kind === "rate" ? ceiling : ceiling * this.tuning.random());
    this.backoffUntil = Math.max(this.backoffUntil, now + wait);
    if (kind === "rate") this.limiter.pauseUntil(now + wait);
    if (this.consecutiveFailures >= this.tuning.skipAfterFailures && this.skippedUntil <= now) {
      this.skippedUntil = now + this.tuning.skipForMs;
      return true;
    }
    return false;
  }

  status(now: number): ProviderStatus {
    const skipped = this.skippedUntil > now;
    const state: ProviderState = skipped ? "skipped" : this.backoffUntil > now ? "backing off" : "ok";
    return {
      label: this.label,
      url: this.url,
      state,
      reason: state === "ok" ? null : this.reason,
      head: this.head,
      served: this.served,
      failed: this.failed,
      consecutiveFailures: this.consecutiveFailures,
      inFlight: this.limiter.inFlight,
    };
  }
}
