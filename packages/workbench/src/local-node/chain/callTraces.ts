// The calls a transaction made, for call handlers. graph-node reads them with `trace_filter` (parity
// traces), which Hardhat 3 does not have; its `debug_traceTransaction` with the callTracer returns the
// same call tree. Flattened depth first, the frames come in the order parity's traces list them. As
// graph-node takes them: only message calls (not contract creations), with at least a 4-byte selector,
// without an error; a transaction that failed contributes none.
import type { RpcClient } from "./rpcClient.js";

interface CallFrame {
  type: string;
  from: string;
  to?: string;
  input?: string;
  output?: string;
  value?: string;
  error?: string;
  calls?: CallFrame[];
}

export interface TracedCall {
  transactionHash: string;
  /** Position among the transaction's calls, depth first (the top-level call is 0). */
  seq: number;
  from: string;
  to: string;
  input: string;
  output: string;
}

const MESSAGE_CALLS = new Set(["CALL", "CALLCODE", "DELEGATECALL", "STATICCALL"]);

/** The successful message calls of one transaction, depth first. */
export async function tracedCalls(rpc: RpcClient, transactionHash: string): Promise<TracedCall[]> {
  const top = await rpc.request<CallFrame | null>("debug_traceTransaction", [transactionHash, { tracer: "callTracer" }]);
  if (!top || top.error) return [];
  const out: TracedCall[] = [];
  let seq = 0;
  const walk = (frame: CallFrame): void => {
    const at = seq++;
    // A frame that failed reverted everything below it too.
    if (frame.error) return;
    const input = frame.input ?? "0x";
    if (MESSAGE_CALLS.has(frame.type.toUpperCase()) && frame.to && input.length >= 10) {
      out.push({ transactionHash, seq: at, from: frame.from.toLowerCase(), to: frame.to.toLowerCase(), input: input.toLowerCase(), output: (frame.output ?? "0x").toLowerCase() });
    }
    for (const child of frame.calls ?? []) walk(child);
  };
  walk(top);
  return out;
}
