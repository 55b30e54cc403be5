// A raw JSON-RPC call for scenarios (evm_snapshot, evm_revert, evm_mine).
export async function chainRpc<T = unknown>(chainUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(chainUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method} failed: ${body.error.message}`);
  return body.result as T;
}
