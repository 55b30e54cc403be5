// Which chain the node's data was indexed from: its genesis block hash, kept beside the data. A dev loop
// started against another chain (a Hardhat or Anvil node started again) drops data that no longer
// matches it instead of serving entities from blocks that are gone.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BaseError } from "../lib/errors.js";
import { maskUrl } from "../lib/redact.js";

export class ChainUnreachableError extends BaseError {
  override name = "ChainUnreachableError";
}

/** The chain's genesis hash, or a clear error when nothing answers JSON-RPC at `ethereumRpc`. */
export async function genesisHash(ethereumRpc: string): Promise<string> {
  let body: { result?: { hash?: unknown } | null; error?: { message?: string } };
  try {
    const response = await fetch(ethereumRpc, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["0x0", false] }),
      signal: AbortSignal.timeout(5000),
    });
    body = (await response.json()) as typeof body;
  } catch (cause) {
    throw new ChainUnreachableError(`no Ethereum JSON-RPC answers at ${maskUrl(ethereumRpc)}: start your chain (npx hardhat node, anvil) or pass --ethereum-rpc`, { cause });
  }
  const hash = body.result?.hash;
  if (typeof hash !== "string") throw new ChainUnreachableError(`${maskUrl(ethereumRpc)} answered eth_getBlockByNumber(0) without a block hash${body.error?.message ? `: ${body.error.message}` : ""}`);
  return hash;
}

/** True when `dataDir` holds data from a chain other than the one at `ethereumRpc`; records this one. */
export async function chainChanged(ethereumRpc: string, dataDir: string): Promise<boolean> {
  const hash = await genesisHash(ethereumRpc);
  const file = join(dataDir, "chain.json");
  const recorded = await readFile(file, "utf8").then((text) => (JSON.parse(text) as { genesis?: string }).genesis, () => undefined);
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify({ genesis: hash }) + "\n");
  return recorded !== undefined && recorded !== hash;
}
