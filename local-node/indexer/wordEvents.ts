// Events whose parameters are still in the eth_getLogs answer's text. When every input of an event is
// one 32-byte word (addresses, integers, booleans, fixed bytes) and its log was read in place
// (chain/logTable.ts), the trigger keeps the log's row and the plan of its words, and the run packing
// writes the parameters straight from the answer's hex (runCodec.ts). No strings or value objects are
// made per event on the committing thread; `event` builds them only if something asks (merging created
// data sources' triggers, ordering a refused log, a trigger handed to the worker as an object).
import type { EthereumBlockInput, EthereumEventInput, EthereumTransactionInput, EventParamInput } from "../../wasm-host/index.js";
import type { ChainLog, TableLog } from "../chain/index.js";
import { buildEvent } from "./eventBuilder.js";
import type { Trigger } from "./hostProtocol.js";

/** The ABI types that fit one word, as read from it. */
export type WordType = { kind: "address" } | { kind: "bool" } | { kind: "uint" } | { kind: "int"; bits: number } | { kind: "fixedBytes"; size: number };

/** One input: where its word is (topic 1-3, or data word `word` when `topic` is 0) and how it reads. */
export interface WordSlot {
  name: string;
  type: WordType;
  topic: number;
  word: number;
}

/** An event's inputs when each is one word: where they are, and how the decoder reads them from text. */
export interface WordPlan {
  slots: readonly WordSlot[];
  /** Data words the log must have. */
  dataWords: number;
  decode(log: ChainLog): EventParamInput[] | null;
}

/** A table log's parameters as its words, decoded to values only when asked for. */
export class WordParams {
  constructor(
    readonly log: TableLog,
    readonly plan: WordPlan,
  ) {}
  get slots(): readonly WordSlot[] {
    return this.plan.slots;
  }
  decode(): EventParamInput[] {
    // The decoder checked the data's length before choosing words: the plan reads it whole.
    return this.plan.decode(this.log)!;
  }
}

/** An event trigger over WordParams; `event` is built once, on first use. */
export class WordEventTrigger {
  readonly kind = "event" as const;
  private built: EthereumEventInput | null = null;
  constructor(
    readonly dataSource: number,
    readonly handler: string,
    readonly words: WordParams,
    readonly block: EthereumBlockInput,
    readonly transaction: EthereumTransactionInput,
  ) {}
  get event(): EthereumEventInput {
    this.built ??= buildEvent({ log: this.words.log, block: this.block, transaction: this.transaction, parameters: this.words.decode(), receipt: null });
    return this.built;
  }
}

/** The trigger as a plain object, safe to post to another thread (a WordEventTrigger holds a whole answer). */
export function plainTrigger(t: Trigger): Trigger {
  return t instanceof WordEventTrigger ? { kind: "event", dataSource: t.dataSource, handler: t.handler, event: t.event } : t;
}
