// ethereum.call / getBalance / hasCode for handlers, answered over JSON-RPC at the handler's block.
import { FunctionFragment, Interface } from "ethers/abi";
import { AbiArgumentError, fitCallArguments, toEthersValue, type BlockPtr, type EthereumCallRequest, type EthereumValue } from "../../wasm-host/index.js";
import { RpcResponseError } from "../../json-rpc/index.js";
import { type RpcClient, toHex } from "../chain/index.js";
import { toEthereumValue } from "./decode.js";

function blockTag(block: BlockPtr | null): string {
  return block ? toHex(block.number) : "latest";
}

/** `balanceOf(address):(uint256)` (graph-cli's form) -> an ethers function fragment. */
export function fragmentFromSignature(name: string, signature: string): FunctionFragment {
  const sig = signature.trim();
  const split = sig.indexOf("):(");
  const head = split >= 0 ? sig.slice(0, split + 1) : sig;
  const outputs = split >= 0 && sig.endsWith(")") ? sig.slice(split + 3, -1) : "";
  const open = head.indexOf("(");
  const fn = open > 0 ? head.slice(0, open) : name;
  const inputs = open >= 0 ? head.slice(open + 1, -1) : "";
  return FunctionFragment.from(`function ${fn}(${inputs}) view returns (${outputs})`);
}

/** A revert: the node says so (code 3, or "revert"/"invalid opcode" in the message). */
function isRevert(err: unknown): boolean {
  return err instanceof RpcResponseError && (err.code === 3 || /revert|invalid opcode|out of gas/i.test(err.message));
}

export interface ChainServices {
  ethereumCall(call: EthereumCallRequest): Promise<EthereumValue[] | null>;
  getBalance(address: string, block: BlockPtr | null): Promise<bigint>;
  hasCode(address: string, block: BlockPtr | null): Promise<boolean>;
}

export function createChainServices(rpc: RpcClient): ChainServices {
  return {
    async ethereumCall(call) {
      const fragment = fragmentFromSignature(call.functionName, call.functionSignature);
      const iface = new Interface([fragment]);
      let data: string;
      try {
        // Short values (a 2-byte Bytes for a bytes32) are widened as graph-node widens them.
        data = iface.encodeFunctionData(fragment, fitCallArguments(fragment.inputs, call.functionParams).map(toEthersValue));
      } catch (err) {
        // graph-node's "Failed to call function" error: not deterministic, the block is retried.
        const reason = err instanceof AbiArgumentError ? err.message : `error encoding input call data: ${(err as Error).message}`;
        throw new Error(`Failed to call function "${call.functionName}" of contract "${call.contractName}": ${reason}`, { cause: err });
      }
      let result: string;
      try {
        result = await rpc.request<string>("eth_call", [{ to: call.contractAddress, data }, blockTag(call.block)]);
      } catch (err) {
        if (isRevert(err)) return null;
        throw err;
      }
      if (result === "0x" && fragment.outputs.length > 0) return null;
      try {
        const decoded = iface.decodeFunctionResult(fragment, result);
        return fragment.outputs.map((o, i) => toEthereumValue(o, decoded[i]));
      } catch {
        return null;
      }
    },
    async getBalance(address, block) {
      return BigInt(await rpc.request<string>("eth_getBalance", [address, blockTag(block)]));
    },
    async hasCode(address, block) {
      const code = await rpc.request<string>("eth_getCode", [address, blockTag(block)]);
      return code !== "0x" && code !== "";
    },
  };
}
