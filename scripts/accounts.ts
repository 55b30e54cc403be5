// npm run accounts -- <pubkey>... [--encoding base58|base64|base64+zstd|jsonParsed]
// Reads Solana accounts from SOLANA_RPC_URL (default http://127.0.0.1:8899); one key uses getAccountInfo,
// several use getMultipleAccounts (chunks of 100, sent concurrently).
import { parseArgs } from "node:util";
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import { accountToJson, getAccountInfo, getMultipleAccounts, type AccountEncoding } from "../clients/solana/index.js";

const ENCODINGS: readonly string[] = ["base58", "base64", "base64+zstd", "jsonParsed"];

try {
  process.loadEnvFile();
} catch {
  // No .env file: the environment alone applies.
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { encoding: { type: "string" } } });
if (positionals.length === 0 || (values.encoding !== undefined && !ENCODINGS.includes(values.encoding))) {
  console.error(`usage: npm run accounts -- <pubkey>... [--encoding ${ENCODINGS.join("|")}]`);
  process.exit(2);
}
const encoding = values.encoding as AccountEncoding | undefined;
const client = createJsonRpcClient({ url: process.env.SOLANA_RPC_URL ?? "http://127.0.0.1:8899" });

try {
  const options = encoding === undefined ? {} : { encoding };
  const output =
    positionals.length === 1
      ? await getAccountInfo(client, { address: positionals[0]!, ...options }).then((r) => ({ context: r.context, value: accountToJson(r.value) }))
      : await getMultipleAccounts(client, { addresses: positionals, ...options }).then((r) => ({ context: r.context, value: r.value.map(accountToJson) }));
  console.log(JSON.stringify(output, null, 2));
} catch (error) {
  const e = error as Error & { code?: number };
  console.error(`${e.name}${e.code !== undefined ? ` ${e.code}` : ""}: ${e.message}`);
  process.exit(1);
}
