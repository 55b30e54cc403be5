// `npm run approve -- --count N`: emits N Approval events through the proxy and prints the tx hashes.
import { sendApprovals, readNetworks } from "../hardhat/deploy/index.js";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  count: { type: "string", default: "10" },
  token: { type: "string" },
  rpc: { type: "string", default: process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545" },
  network: { type: "string", default: process.env.NETWORK ?? "localhost" },
  "batch-size": { type: "string" },
  seed: { type: "string" },
  quiet: { type: "boolean", default: false },
});

try {
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1) throw new Error(`--count must be a positive integer, got "${values.count}"`);
  const token = values.token ?? (await readNetworks())[values.network]?.ApprovalToken?.address;
  if (!token) throw new Error(`no token address: pass --token or run \`npm run deploy:contracts\` for network "${values.network}"`);
  const sent = await sendApprovals({
    rpcUrl: values.rpc,
    token,
    count,
    ...(process.env.PRIVATE_KEY ? { privateKey: process.env.PRIVATE_KEY } : {}),
    ...(values["batch-size"] ? { batchSize: Number(values["batch-size"]) } : {}),
    ...(values.seed ? { seed: Number(values.seed) } : {}),
  });
  if (!values.quiet) for (const hash of sent.txHashes) console.log(hash);
  console.log(`${sent.approvals} approvals in ${sent.txHashes.length} transactions (blocks ${sent.firstBlock}-${sent.lastBlock})`);
} catch (error) {
  fail(error);
}
