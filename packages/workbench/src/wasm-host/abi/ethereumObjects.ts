// ethereum.Event / Block / Transaction / TransactionReceipt / Log / EventParam / SmartContractCall in
// module memory, with graph-node's layouts per apiVersion (chain/ethereum/src/runtime/abi.rs):
// 0.0.5 = Block without baseFeePerGas, Transaction without nonce; 0.0.6 adds both; 0.0.7 adds receipt.
import type { AscCodec } from "./codec.js";
import type {
  BigIntLike,
  BytesLike,
  EthereumBlockInput,
  EthereumCallInput,
  EthereumCallRequest,
  EthereumEventInput,
  EventParamInput,
  EthereumLogInput,
  EthereumReceiptInput,
  EthereumTransactionInput,
} from "../types.js";
import type { BlockPtr } from "../values/storeValue.js";
import { TypeId } from "./typeIds.js";
import { bytesToHex } from "../values/hex.js";
import { HostError } from "../errors.js";

/** Feature switches derived from the mapping's apiVersion. */
export interface EventLayout {
  /** Block.baseFeePerGas and Transaction.nonce (>= 0.0.6). */
  v006: boolean;
  /** Event.receipt (>= 0.0.7). */
  v007: boolean;
}

export function eventLayoutFor(apiVersion: string): EventLayout {
  const [, , patch] = apiVersion.split(".").map(Number);
  const p = patch ?? 0;
  return { v006: p >= 6, v007: p >= 7 };
}

export interface EthereumObjectWriter {
  writeEvent(event: EthereumEventInput): number;
  writeBlock(block: EthereumBlockInput): number;
  writeCall(call: EthereumCallInput): number;
  /** Forgets cached block/transaction objects (after memory was recycled). */
  reset(): void;
}

export function createEthereumObjectWriter(codec: AscCodec, layout: EventLayout): EthereumObjectWriter {
  // Events of one block and one transaction share their Block/Transaction input objects; writing them
  // once per object (as long as the module memory is the same) keeps the per-event cost low.
  let lastBlock: EthereumBlockInput | null = null;
  let lastBlockPtr = 0;
  let lastTx: EthereumTransactionInput | null = null;
  let lastTxPtr = 0;

  const bytes = (v: BytesLike) => (typeof v === "string" ? codec.writeBytesHex(v) : codec.writeBytes(v));
  const bytesOrNull = (v: BytesLike | null | undefined) => (v === null || v === undefined ? 0 : bytes(v));
  const big = (v: BigIntLike) => codec.writeBigInt(typeof v === "bigint" ? v : BigInt(v));
  const bigOrNull = (v: BigIntLike | null | undefined) => (v === null || v === undefined ? 0 : big(v));

  const struct = (typeId: number, fields: number[]) => {
    const ptr = codec.allocObject(typeId, 4 * fields.length);
    for (let i = 0; i < fields.length; i++) codec.writeU32(ptr + 4 * i, fields[i]!);
    return ptr;
  };

  const writeBlock = (b: EthereumBlockInput) => {
    const fields = [
      bytes(b.hash),
      bytes(b.parentHash),
      bytes(b.unclesHash),
      bytes(b.author),
      bytes(b.stateRoot),
      bytes(b.transactionsRoot),
      bytes(b.receiptsRoot),
      big(b.number),
      big(b.gasUsed),
      big(b.gasLimit),
      big(b.timestamp),
      big(b.difficulty),
      big(b.totalDifficulty ?? 0n),
      bigOrNull(b.size),
    ];
    if (layout.v006) fields.push(bigOrNull(b.baseFeePerGas));
    return struct(TypeId.EthereumBlock, fields);
  };

  const writeTransaction = (t: EthereumTransactionInput) => {
    const fields = [bytes(t.hash), big(t.index), bytes(t.from), bytesOrNull(t.to), big(t.value), big(t.gasLimit), big(t.gasPrice), bytes(t.input)];
    if (layout.v006) fields.push(big(t.nonce));
    return struct(TypeId.EthereumTransaction, fields);
  };

  const writeLog = (l: EthereumLogInput) =>
    struct(TypeId.Log, [
      bytes(l.address),
      codec.writeArray(TypeId.ArrayH256, l.topics, bytes),
      bytes(l.data),
      bytes(l.blockHash),
      bytes(l.blockNumber),
      bytes(l.transactionHash),
      big(l.transactionIndex),
      big(l.logIndex),
      big(l.transactionLogIndex),
      codec.writeString(l.logType),
      l.removed === null ? 0 : codec.writeWrappedBool(l.removed),
    ]);

  const writeReceipt = (r: EthereumReceiptInput) =>
    struct(TypeId.TransactionReceipt, [
      bytes(r.transactionHash),
      big(r.transactionIndex),
      bytes(r.blockHash),
      big(r.blockNumber),
      big(r.cumulativeGasUsed),
      big(r.gasUsed),
      bytesOrNull(r.contractAddress),
      codec.writeArray(TypeId.ArrayLog, r.logs, writeLog),
      big(r.status),
      bytesOrNull(r.root),
      bytes(r.logsBloom),
    ]);

  const blockPtr = (block: EthereumBlockInput) => {
    if (block !== lastBlock || lastBlockPtr === 0) {
      lastBlockPtr = writeBlock(block);
      lastBlock = block;
    }
    return lastBlockPtr;
  };
  const txPtr = (tx: EthereumTransactionInput) => {
    if (tx !== lastTx || lastTxPtr === 0) {
      lastTxPtr = writeTransaction(tx);
      lastTx = tx;
    }
    return lastTxPtr;
  };
  // AssemblyScript strings are immutable, so parameter names can be written once per instance.
  const names = new Map<string, number>();
  const nameString = (name: string) => {
    let ptr = names.get(name);
    if (ptr === undefined) {
      if (names.size >= 4096) names.clear();
      ptr = codec.writeString(name);
      names.set(name, ptr);
    }
    return ptr;
  };
  const writeParams = (params: EventParamInput[]) =>
    codec.writeArray(TypeId.ArrayEventParam, params, (p) => {
      const name = nameString(p.name);
      const value = codec.writeEthereumValue(p.value);
      return struct(TypeId.EventParam, [name, value]);
    });

  return {
    writeBlock: blockPtr,
    writeCall(call) {
      const fields = [bytes(call.to), bytes(call.from), blockPtr(call.block), txPtr(call.transaction), writeParams(call.inputValues), writeParams(call.outputValues)];
      return struct(TypeId.EthereumCall, fields);
    },
    writeEvent(event) {
      blockPtr(event.block);
      txPtr(event.transaction);
      const params = writeParams(event.parameters);
      const fields = [
        bytes(event.address),
        big(event.logIndex),
        big(event.transactionLogIndex),
        event.logType === null ? 0 : codec.writeString(event.logType),
        lastBlockPtr,
        lastTxPtr,
        params,
      ];
      if (layout.v007) fields.push(event.receipt === null || event.receipt === undefined ? 0 : writeReceipt(event.receipt));
      return struct(TypeId.EthereumEvent, fields);
    },
    reset() {
      names.clear();
      lastBlock = null;
      lastBlockPtr = 0;
      lastTx = null;
      lastTxPtr = 0;
    },
  };
}

/** Reads graph-ts's `SmartContractCall` (contractName, contractAddress, functionName, functionSignature, functionParams). */
/** graph-node reads the called address as exactly 20 bytes, failing the handler deterministically otherwise. */
function readAddress(codec: AscCodec, ptr: number): Uint8Array {
  const bytes = codec.readBytes(ptr);
  if (bytes.length !== 20) throw new HostError("CONVERSION", `expected array of length 20, found length ${bytes.length}`);
  return bytes;
}

export function readSmartContractCall(codec: AscCodec, ptr: number, block: BlockPtr | null): EthereumCallRequest {
  return {
    contractName: codec.readString(codec.readU32(ptr)),
    contractAddress: bytesToHex(readAddress(codec, codec.readU32(ptr + 4))),
    functionName: codec.readString(codec.readU32(ptr + 8)),
    functionSignature: codec.readString(codec.readU32(ptr + 12)),
    functionParams: codec.readArray(codec.readU32(ptr + 16), codec.readEthereumValue),
    block,
  };
}
