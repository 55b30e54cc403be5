// `npm run move -- tx <hash>` and `npm run move -- message <address>`: argument parsing, the calls and the JSON
// printed, kept here so tests drive them; scripts/move.ts only wires process.argv, env and stdout.
import { normalizeAddress } from "./address.js";
import { createMoveClient } from "./client.js";
import { MoveClientError } from "./errors.js";
import { getMessageHistory } from "./getMessageHistory.js";
import { getMessageHolder } from "./getMessageHolder.js";
import { getTransactionByHash } from "./getTransactionByHash.js";
import { messageChangesOf } from "./messageModule.js";
import type { MoveEvent, MoveTransaction } from "./types.js";

export const MOVE_USAGE = `Usage:
  npm run move -- tx <hash>                       transaction by hash (user or pending), with its events
  npm run move -- message <address> [--history]   the MessageHolder under <address> (and its change history)
Options:
  --node <url>       node address without /v1 (default: env MOVE_NODE_URL)
  --module <address> account that published the message module (default: env MOVE_MODULE_ADDRESS, else <address>)
  --page-size <n>    events per request for --history (default 25)
  --timeout <ms>     per request (default: env MOVE_TIMEOUT_MS, else 15000)`;

export type MoveCommand =
  | { name: "tx"; hash: string; options: CommonOptions }
  | { name: "message"; address: string; history: boolean; pageSize: number | undefined; options: CommonOptions };

type CommonOptions = { nodeUrl: string | undefined; moduleAddress: string | undefined; timeoutMs: number | undefined };

export class UsageError extends MoveClientError {
  override name = "UsageError";
  override readonly code = "MOVE_USAGE";
}

export function parseMoveArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): MoveCommand {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--history") flags.set("history", true);
    else if (arg.startsWith("--")) {
      const name = arg.slice(2);
      if (!["node", "module", "page-size", "timeout"].includes(name)) throw new UsageError(`Unknown option ${arg}`);
      const value = argv[++i];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`Option ${arg} needs a value`);
      flags.set(name, value);
    } else positional.push(arg);
  }
  const text = (name: string) => {
    const value = flags.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const int = (name: string, fallback: string | undefined) => {
    const value = text(name) ?? fallback;
    if (value === undefined || value === "") return undefined;
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a positive integer, got ${value}`);
    return Number(value);
  };
  const options: CommonOptions = {
    nodeUrl: text("node") ?? (env.MOVE_NODE_URL || undefined),
    moduleAddress: text("module") ?? (env.MOVE_MODULE_ADDRESS || undefined),
    timeoutMs: int("timeout", env.MOVE_TIMEOUT_MS),
  };
  const [name, target, ...rest] = positional;
  if (rest.length > 0) throw new UsageError(`Unexpected argument ${rest[0]}`);
  if (name === "tx" && target) return { name, hash: target, options };
  if (name === "message" && target) {
    return { name, address: target, history: flags.get("history") === true, pageSize: int("page-size", undefined), options };
  }
  throw new UsageError(name === "tx" || name === "message" ? `Missing argument for ${name}` : "Missing or unknown command");
}

export type MoveCommandDeps = { fetch?: typeof fetch };

/** Runs the command and returns the JSON-ready result. Throws MoveClientError subclasses. */
export async function runMoveCommand(command: MoveCommand, deps: MoveCommandDeps = {}): Promise<unknown> {
  const { nodeUrl, timeoutMs, moduleAddress } = command.options;
  if (!nodeUrl) throw new UsageError("No node URL: pass --node <url> or set MOVE_NODE_URL");
  const client = createMoveClient({
    nodeUrl,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  if (command.name === "tx") {
    return describeTransaction(await getTransactionByHash(client, { hash: command.hash }), moduleAddress);
  }
  const params = { address: command.address, ...(moduleAddress ? { moduleAddress } : {}) };
  const holder = await getMessageHolder(client, params);
  if (holder.status === "no_message") {
    return { status: "no_message", address: holder.address, module_address: holder.moduleAddress, reason: holder.reason };
  }
  const result: Record<string, unknown> = {
    status: "set",
    address: holder.address,
    module_address: holder.moduleAddress,
    message: holder.message,
    message_change_events: {
      counter: holder.events.counter,
      guid: { creation_number: holder.events.guid.creationNumber, account_address: holder.events.guid.accountAddress },
    },
    ledger_version: holder.ledger.ledgerVersion,
  };
  if (command.history) {
    const history = await getMessageHistory(client, {
      ...params,
      ...(command.pageSize !== undefined ? { pageSize: command.pageSize } : {}),
    });
    result.history = history.status === "set" ? history.changes.map((change) => ({
      sequence_number: change.sequenceNumber,
      version: change.version,
      from_message: change.fromMessage,
      to_message: change.toMessage,
    })) : [];
  }
  return result;
}

function describeEvent(event: MoveEvent) {
  return {
    type: event.type,
    sequence_number: event.sequenceNumber,
    guid: { creation_number: event.guid.creationNumber, account_address: event.guid.accountAddress },
    data: event.data,
  };
}

export function describeTransaction(txn: MoveTransaction, moduleAddress?: string) {
  const module = moduleAddress ? normalizeAddress(moduleAddress) : undefined;
  if (txn.kind === "other") {
    return { type: txn.type, hash: txn.hash, version: txn.version, success: txn.success, vm_status: txn.vmStatus, events: txn.events.map(describeEvent) };
  }
  const request = {
    hash: txn.hash,
    sender: txn.sender,
    sequence_number: txn.sequenceNumber,
    max_gas_amount: txn.maxGasAmount,
    gas_unit_price: txn.gasUnitPrice,
    expiration_timestamp_secs: txn.expirationTimestampSecs,
    payload: txn.payload,
  };
  if (txn.kind === "pending") return { type: "pending_transaction", ...request };
  return {
    type: "user_transaction",
    ...request,
    version: txn.version,
    success: txn.success,
    vm_status: txn.vmStatus,
    gas_used: txn.gasUsed,
    timestamp_us: txn.timestampUs,
    events: txn.events.map(describeEvent),
    message_changes: messageChangesOf(txn.events, module).map((c) => ({ from_message: c.fromMessage, to_message: c.toMessage })),
  };
}

/** JSON with every bigint written as a decimal string, as the node itself writes u64 values. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2);
}
