// A data source's call handlers: which handler a traced call's selector names, and the call's inputs
// and outputs decoded by the ABI function the handler names (graph-node's `ethereum.Call` values). As
// graph-node: inputs that do not decode skip the call (a warning); outputs that do not decode fail.
import { Interface, type FunctionFragment } from "ethers/abi";
import type { EventParamInput } from "../../wasm-host/index.js";
import type { TracedCall } from "../chain/index.js";
import { toEthereumValue } from "./decode.js";
import { IndexerError } from "./errors.js";
import type { IndexedCallHandler } from "./types.js";

export interface DecodedCall {
  handler: string;
  inputs: EventParamInput[];
  outputs: EventParamInput[];
}

export interface CallDecoder {
  decode(call: TracedCall): DecodedCall | null;
}

export function createCallDecoder(handlers: IndexedCallHandler[], warn: (message: string) => void = () => {}): CallDecoder | null {
  if (handlers.length === 0) return null;
  const bySelector = new Map<string, { handler: IndexedCallHandler; fragment: FunctionFragment; iface: Interface }>();
  for (const h of handlers) {
    const iface = new Interface([h.abiFunction as never]);
    const fragment = iface.getFunction(h.selector);
    // The first handler of a selector wins, as graph-node's `find`.
    if (fragment && !bySelector.has(h.selector)) bySelector.set(h.selector, { handler: h, fragment, iface });
  }
  return {
    decode(call) {
      const entry = bySelector.get(call.input.slice(0, 10));
      if (!entry) return null;
      const { fragment, iface, handler } = entry;
      let inputs;
      try {
        inputs = iface.decodeFunctionData(fragment, call.input);
      } catch (error) {
        warn(`Failed parsing inputs of ${handler.function} in transaction ${call.transactionHash}, skipping: ${(error as Error).message}`);
        return null;
      }
      let outputs;
      try {
        outputs = iface.decodeFunctionResult(fragment, call.output);
      } catch (error) {
        throw new IndexerError(`Decoding function outputs for the call ${handler.function} failed, raw output: ${call.output}`, { cause: error });
      }
      return {
        handler: handler.handler,
        inputs: fragment.inputs.map((p, i) => ({ name: p.name, value: toEthereumValue(p, inputs[i]) })),
        outputs: fragment.outputs.map((p, i) => ({ name: p.name, value: toEthereumValue(p, outputs[i]) })),
      };
    },
  };
}
