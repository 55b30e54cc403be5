// State table of a Move node running the sample `message` module, kept in memory for the fixture server.
// Transitions follow move/sources/message.move: a set on an address with no MessageHolder creates the holder and
// its event handle without an event; each later set emits one MessageChangeEvent (old, new) and replaces the message.
// Wire values follow the Aptos REST shapes: every u64 a decimal string, addresses 0x + 64 hex (0x0-0xf short).
import { createHash } from "node:crypto";
import { normalizeAddress, type MoveAddress, type TransactionHash } from "../address.js";
import type {
  RawEvent,
  RawEventHandle,
  RawMoveResource,
  RawPendingTransaction,
  RawTransaction,
  RawUserTransaction,
  RawVersionedEvent,
} from "../types.js";

export type FixtureChainOptions = {
  /** Account that published the module; default 0xcafe. */
  moduleAddress?: string;
  chainId?: number;
  /** Version of the first transaction committed here. */
  firstVersion?: bigint;
};

export type SubmitOptions = {
  /** Leave the transaction in mempool until `commit`. */
  pending?: boolean;
  /** Commit it as failed with this vm_status (no state change, sequence number still used). */
  failWith?: string;
};

export type EventHandleLookup =
  | { kind: "found"; creationNumber: bigint; accountAddress: MoveAddress }
  | { kind: "no_resource" }
  | { kind: "no_field" }
  | { kind: "not_a_handle" };

export type FixtureChain = {
  readonly chainId: number;
  readonly moduleAddress: MoveAddress;
  ledgerVersion(): bigint;
  ledgerTimestampUs(): bigint;
  /** Creates an empty account (no MessageHolder). Sending also creates the sender's account. */
  createAccount(address: string): void;
  /** Test-only entry point standing in for a signed `message::set_message` submission. Returns the hash. */
  submitSetMessage(sender: string, message: string, options?: SubmitOptions): TransactionHash;
  /** Commits pending transactions in submission order (only `hash` when given). */
  commit(hash?: string): void;
  getTransaction(hash: TransactionHash): RawTransaction | undefined;
  getAccount(address: MoveAddress): { sequence_number: string; authentication_key: string } | undefined;
  getResource(address: MoveAddress, structTag: string): RawMoveResource | undefined;
  findEventHandle(address: MoveAddress, structTag: string, fieldName: string): EventHandleLookup;
  /** Events of one stream from `start` (or the last `limit` when start is undefined), oldest first. */
  getEvents(address: MoveAddress, creationNumber: bigint, start: bigint | undefined, limit: number): RawVersionedEvent[];
};

type AccountState = {
  address: MoveAddress;
  sequenceNumber: bigint;
  /** Next sequence number handed to a submission (committed + pending). */
  nextSubmitSequence: bigint;
  guidCreationNum: bigint;
  resources: Map<string, RawMoveResource>;
};

type PendingEntry = { raw: RawPendingTransaction; message: string; failWith: string | undefined };

const FRAMEWORK = "0x1";
const ACCOUNT_TYPE = `${FRAMEWORK}::account::Account`;
const FEE_STATEMENT_TYPE = `${FRAMEWORK}::transaction_fee::FeeStatement`;

/** AIP-40 form: 0x0..0xf short, every other address long. */
export function standardAddress(address: MoveAddress): string {
  const short = address.replace(/^0x0*/, "");
  return short.length <= 1 ? `0x${short || "0"}` : address;
}

export function createFixtureChain(options: FixtureChainOptions = {}): FixtureChain {
  const moduleAddress = normalizeAddress(options.moduleAddress ?? "0xcafe");
  const chainId = options.chainId ?? 4;
  const holderType = `${standardAddress(moduleAddress)}::message::MessageHolder`;
  const changeEventType = `${standardAddress(moduleAddress)}::message::MessageChangeEvent`;
  const accounts = new Map<MoveAddress, AccountState>();
  const transactions = new Map<TransactionHash, RawTransaction>();
  const pending: PendingEntry[] = [];
  const eventStreams = new Map<string, RawVersionedEvent[]>();
  let nextVersion = options.firstVersion ?? 1000n;
  let timestampUs = 1_700_000_000_000_000n;
  let submissions = 0;

  const streamKey = (address: MoveAddress, creationNumber: bigint) => `${address}:${creationNumber}`;

  function handle(address: MoveAddress, creationNum: bigint): RawEventHandle {
    return { counter: "0", guid: { id: { addr: address, creation_num: creationNum.toString() } } };
  }

  function ensureAccount(address: MoveAddress): AccountState {
    let account = accounts.get(address);
    if (!account) {
      // Creation numbers 0 and 1 go to the Account resource's own handles, as on chain.
      account = { address, sequenceNumber: 0n, nextSubmitSequence: 0n, guidCreationNum: 2n, resources: new Map() };
      account.resources.set(ACCOUNT_TYPE, {
        type: ACCOUNT_TYPE,
        data: {
          authentication_key: address,
          coin_register_events: handle(address, 0n),
          guid_creation_num: "2",
          key_rotation_events: handle(address, 1n),
          rotation_capability_offer: { for: { vec: [] } },
          sequence_number: "0",
          signer_capability_offer: { for: { vec: [] } },
        },
      });
      accounts.set(address, account);
    }
    return account;
  }

  function syncAccountResource(account: AccountState): RawMoveResource {
    const resource = account.resources.get(ACCOUNT_TYPE)!;
    resource.data.sequence_number = account.sequenceNumber.toString();
    resource.data.guid_creation_num = account.guidCreationNum.toString();
    return resource;
  }

  function emit(address: MoveAddress, eventHandle: RawEventHandle, type: string, data: unknown, version: bigint): RawEvent {
    const creationNumber = BigInt(eventHandle.guid.id.creation_num);
    const event: RawEvent = {
      guid: { creation_number: creationNumber.toString(), account_address: address },
      sequence_number: eventHandle.counter,
      type,
      data,
    };
    const key = streamKey(address, creationNumber);
    const stream = eventStreams.get(key) ?? [];
    stream.push({ version: version.toString(), ...event });
    eventStreams.set(key, stream);
    eventHandle.counter = (BigInt(eventHandle.counter) + 1n).toString();
    return event;
  }

  // The state transition of message::set_message; returns the events and the written resources.
  function applySetMessage(account: AccountState, message: string, version: bigint) {
    const events: RawEvent[] = [];
    let holder = account.resources.get(holderType) as RawMoveResource<{ message: string; message_change_events: RawEventHandle }> | undefined;
    if (!holder) {
      holder = {
        type: holderType,
        data: { message, message_change_events: handle(account.address, account.guidCreationNum) },
      };
      account.guidCreationNum += 1n;
      account.resources.set(holderType, holder as RawMoveResource);
    } else {
      const from = holder.data.message;
      events.push(emit(account.address, holder.data.message_change_events, changeEventType, { from_message: from, to_message: message }, version));
      holder.data.message = message;
    }
    return { events, holder: structuredClone(holder) };
  }

  function commitEntry(entry: PendingEntry): void {
    const { raw } = entry;
    const account = ensureAccount(normalizeAddress(raw.sender));
    const version = nextVersion++;
    timestampUs += 1_000_000n;
    const changes: unknown[] = [];
    let events: RawEvent[] = [];
    if (!entry.failWith) {
      const applied = applySetMessage(account, entry.message, version);
      events = applied.events;
      changes.push({ type: "write_resource", address: account.address, state_key_hash: digest(`${holderType}:${account.address}`), data: applied.holder });
    }
    account.sequenceNumber += 1n;
    changes.push({ type: "write_resource", address: account.address, state_key_hash: digest(`${ACCOUNT_TYPE}:${account.address}`), data: structuredClone(syncAccountResource(account)) });
    // Every user transaction ends with the framework's fee statement (a module event: guid 0 at 0x0).
    events.push({
      guid: { creation_number: "0", account_address: "0x0" },
      sequence_number: "0",
      type: FEE_STATEMENT_TYPE,
      data: { execution_gas_units: "4", io_gas_units: "3", storage_fee_octas: "0", storage_fee_refund_octas: "0", total_charge_gas_units: "7" },
    });
    const { type: _pending, ...request } = raw;
    const committed: RawUserTransaction = {
      ...request,
      type: "user_transaction",
      version: version.toString(),
      state_change_hash: digest(`state:${version}`),
      event_root_hash: digest(`events:${version}`),
      state_checkpoint_hash: null,
      gas_used: entry.failWith ? "2" : "7",
      success: !entry.failWith,
      vm_status: entry.failWith ?? "Executed successfully",
      accumulator_root_hash: digest(`accumulator:${version}`),
      changes,
      events,
      timestamp: timestampUs.toString(),
    };
    transactions.set(raw.hash as TransactionHash, committed);
  }

  return {
    chainId,
    moduleAddress,
    ledgerVersion: () => nextVersion - 1n,
    ledgerTimestampUs: () => timestampUs,
    createAccount(address) {
      ensureAccount(normalizeAddress(address));
    },
    submitSetMessage(sender, message, submitOptions = {}) {
      const account = ensureAccount(normalizeAddress(sender));
      const sequenceNumber = account.nextSubmitSequence++;
      const hash = digest(`txn:${account.address}:${sequenceNumber}:${message}:${submissions++}`);
      const raw: RawPendingTransaction = {
        type: "pending_transaction",
        hash,
        sender: account.address,
        sequence_number: sequenceNumber.toString(),
        max_gas_amount: "200000",
        gas_unit_price: "100",
        expiration_timestamp_secs: (timestampUs / 1_000_000n + 600n).toString(),
        payload: {
          type: "entry_function_payload",
          function: `${standardAddress(moduleAddress)}::message::set_message`,
          type_arguments: [],
          arguments: [message],
        },
        signature: { type: "ed25519_signature", public_key: `0x${"ab".repeat(32)}`, signature: `0x${"cd".repeat(64)}` },
      };
      transactions.set(hash, raw);
      const entry = { raw, message, failWith: submitOptions.failWith };
      if (submitOptions.pending) pending.push(entry);
      else commitEntry(entry);
      return hash;
    },
    commit(hash) {
      const wanted = hash ? normalizeHashLoose(hash) : undefined;
      for (let i = 0; i < pending.length; ) {
        const entry = pending[i]!;
        if (wanted && entry.raw.hash !== wanted) {
          i += 1;
          continue;
        }
        pending.splice(i, 1);
        commitEntry(entry);
      }
    },
    getTransaction: (hash) => structuredClone(transactions.get(hash)),
    getAccount(address) {
      const account = accounts.get(address);
      return account && { sequence_number: account.sequenceNumber.toString(), authentication_key: account.address };
    },
    getResource: (address, structTag) => structuredClone(accounts.get(address)?.resources.get(structTag)),
    findEventHandle(address, structTag, fieldName) {
      const resource = accounts.get(address)?.resources.get(structTag);
      if (!resource) return { kind: "no_resource" };
      if (!(fieldName in resource.data)) return { kind: "no_field" };
      const value = resource.data[fieldName] as Partial<RawEventHandle> | undefined;
      const id = value?.guid?.id;
      if (!id || typeof value?.counter !== "string") return { kind: "not_a_handle" };
      return { kind: "found", creationNumber: BigInt(id.creation_num), accountAddress: normalizeAddress(id.addr) };
    },
    getEvents(address, creationNumber, start, limit) {
      const stream = eventStreams.get(streamKey(address, creationNumber)) ?? [];
      const from = start === undefined ? Math.max(0, stream.length - limit) : Number(start);
      return structuredClone(stream.slice(from, from + limit));
    },
  };
}

function digest(text: string): TransactionHash {
  return `0x${createHash("sha3-256").update(text).digest("hex")}`;
}

function normalizeHashLoose(hash: string): string {
  return hash.toLowerCase().startsWith("0x") ? hash.toLowerCase() : `0x${hash.toLowerCase()}`;
}
