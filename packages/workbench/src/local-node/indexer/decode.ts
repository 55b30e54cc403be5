// Decodes logs with the manifest's ABI (ethers) into the host's EthereumValue parameters, and picks
// the handler for each log: topic0 and the number of indexed inputs must match the manifest's event
// signature, as graph-node does (ERC-20 and ERC-721 Transfer share a topic0).
import { Indexed, Interface, type EventFragment, type ParamType, type Result } from "ethers/abi";
import type { EthereumValue, EventParamInput } from "../../wasm-host/index.js";
import type { ChainLog } from "../chain/index.js";

export interface HandlerSpec {
  /** Manifest signature, e.g. `Approval(indexed address,indexed address,uint256)`. */
  event: string;
  handler: string;
  topic0: string;
  receipt: boolean;
  /** `topic1`..`topic3` filters from the manifest: the log's topic must be one of them (null: any). */
  topic1?: string[] | null;
  topic2?: string[] | null;
  topic3?: string[] | null;
}

export interface MatchedLog {
  handler: HandlerSpec;
  parameters: EventParamInput[];
  /** The parameters' names: one list per event signature, shared. */
  names: readonly string[];
}

export interface LogDecoder {
  /** All handlers whose event matches the log (usually one), each with decoded parameters. */
  match(log: ChainLog): MatchedLog[];
  /** The topic0 values the handlers listen to (lowercase 0x hex). */
  readonly topics: string[];
}

interface Candidate {
  spec: HandlerSpec;
  fragment: EventFragment;
  topicCount: number;
  names: readonly string[];
  /** Set when every input is a one-word static type: decoded without ethers (10x faster). */
  fast: FastDecoder | null;
}

type WordReader = (word: string) => EthereumValue;
type FastDecoder = (log: ChainLog) => EventParamInput[] | null;

/** Reader of one 32-byte word (64 hex chars) for a static ABI type, or null when not one word. */
function wordReader(type: ParamType): WordReader | null {
  const t = type.type;
  if (t === "address") return (w) => ({ kind: "address", value: `0x${w.slice(24)}` });
  if (t === "bool") return (w) => ({ kind: "bool", value: /[1-9a-f]/.test(w) });
  let m = /^uint(\d*)$/.exec(t);
  if (m) return (w) => ({ kind: "uint", value: BigInt(`0x${w}`) });
  m = /^int(\d*)$/.exec(t);
  if (m) {
    const bits = Number(m[1] || 256);
    return (w) => ({ kind: "int", value: BigInt.asIntN(bits, BigInt(`0x${w}`)) });
  }
  m = /^bytes(\d+)$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    return (w) => ({ kind: "fixedBytes", value: `0x${w.slice(0, n * 2)}` });
  }
  return null;
}

function fastDecoder(fragment: EventFragment): FastDecoder | null {
  const readers = fragment.inputs.map(wordReader);
  if (readers.some((r) => r === null)) return null;
  const plan = fragment.inputs.map((input, i) => ({ name: input.name, indexed: input.indexed === true, read: readers[i]! }));
  const dataWords = plan.filter((p) => !p.indexed).length;
  return (log) => {
    const data = log.data.slice(2).toLowerCase();
    if (data.length < dataWords * 64) return null;
    let topic = 1;
    let word = 0;
    const out: EventParamInput[] = [];
    for (const p of plan) {
      const w = p.indexed ? log.topics[topic++]?.slice(2) : data.slice(word * 64, ++word * 64);
      if (w === undefined || w.length !== 64) return null;
      out.push({ name: p.name, value: p.read(w) });
    }
    return out;
  };
}

/** `Approval(indexed address,indexed address,uint256)` -> how many inputs are indexed. */
function indexedCount(signature: string): number {
  return (signature.match(/\bindexed\b/g) ?? []).length;
}

function stripIndexed(signature: string): string {
  return signature.replace(/\bindexed\s+/g, "").replace(/\s+/g, "");
}

export function createLogDecoder(abi: unknown[], handlers: HandlerSpec[]): LogDecoder {
  const iface = new Interface(abi as never);
  const byTopic = new Map<string, Candidate[]>();
  for (const spec of handlers) {
    const wanted = stripIndexed(spec.event);
    let fragment: EventFragment | null = null;
    iface.forEachEvent((ev) => {
      if (ev.format("sighash") === wanted && ev.inputs.filter((i) => i.indexed).length === indexedCount(spec.event)) fragment = ev;
    });
    // Fall back to the signature alone when the manifest omits `indexed` markers.
    fragment ??= iface.getEvent(wanted);
    if (!fragment) continue;
    const f = fragment as EventFragment;
    const topic0 = (spec.topic0 || f.topicHash).toLowerCase();
    const list = byTopic.get(topic0) ?? [];
    list.push({ spec, fragment: f, topicCount: 1 + f.inputs.filter((i) => i.indexed).length, names: f.inputs.map((i) => i.name), fast: fastDecoder(f) });
    byTopic.set(topic0, list);
  }

  return {
    topics: [...byTopic.keys()],
    match(log) {
      const t0 = log.topics[0];
      if (!t0) return [];
      const candidates = byTopic.get(t0);
      if (!candidates) return [];
      const out: MatchedLog[] = [];
      for (const c of candidates) {
        if (c.topicCount !== log.topics.length) continue;
        if (!topicsAccepted(c.spec, log.topics)) continue;
        const quick = c.fast?.(log) ?? null;
        if (quick) {
          out.push({ handler: c.spec, parameters: quick, names: c.names });
          continue;
        }
        const result = iface.decodeEventLog(c.fragment, log.data, log.topics);
        out.push({ handler: c.spec, parameters: toParams(c.fragment, result), names: c.names });
      }
      return out;
    },
  };
}

/** graph-node applies a handler's topic1..3 filters to the log before calling it. */
function topicsAccepted(spec: HandlerSpec, topics: string[]): boolean {
  const filters = [spec.topic1, spec.topic2, spec.topic3];
  for (let i = 0; i < 3; i++) {
    const wanted = filters[i];
    // An empty list matches nothing, as graph-node reads it.
    if (!wanted) continue;
    const actual = topics[i + 1]?.toLowerCase();
    if (actual === undefined || !wanted.includes(actual)) return false;
  }
  return true;
}

function toParams(fragment: EventFragment, result: Result): EventParamInput[] {
  return fragment.inputs.map((input, i) => ({
    name: input.name,
    // Indexed dynamic values (string, bytes, arrays, tuples) only exist as their keccak hash.
    value: Indexed.isIndexed(result[i]) ? hashValue(result[i]) : toEthereumValue(input, result[i]),
  }));
}

function hashValue(v: unknown): EthereumValue {
  const hash = (v as { hash?: string } | null)?.hash ?? String(v);
  return { kind: "fixedBytes", value: hash.toLowerCase() };
}

/** ethers' decoded value -> EthereumValue by the ABI type. */
export function toEthereumValue(type: ParamType, v: unknown): EthereumValue {
  if (type.isTuple()) {
    const items = v as unknown[];
    return { kind: "tuple", value: type.components.map((c, i) => toEthereumValue(c, items[i])) };
  }
  if (type.isArray()) {
    const items = Array.from(v as unknown[]);
    const child = type.arrayChildren;
    const value = items.map((x) => toEthereumValue(child, x));
    return type.arrayLength >= 0 ? { kind: "fixedArray", value } : { kind: "array", value };
  }
  const base = type.baseType;
  if (base === "address") return { kind: "address", value: (v as string).toLowerCase() };
  if (base === "bool") return { kind: "bool", value: v as boolean };
  if (base === "string") return { kind: "string", value: v as string };
  if (base === "bytes") return { kind: "bytes", value: (v as string).toLowerCase() };
  if (base.startsWith("bytes")) return { kind: "fixedBytes", value: (v as string).toLowerCase() };
  if (base.startsWith("uint")) return { kind: "uint", value: v as bigint };
  if (base.startsWith("int")) return { kind: "int", value: v as bigint };
  if (base === "function") return { kind: "function", value: (v as string).toLowerCase() };
  throw new Error(`unsupported ABI type ${type.format()}`);
}
