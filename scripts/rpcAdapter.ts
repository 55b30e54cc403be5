// `npm run rpc-adapter -- --target <chain URL> [--port 8546] [--host 127.0.0.1]`: a JSON-RPC pass-through
// that lets graph-node's eth_call reach Hardhat 3's node (graph-node/rpcAdapter.ts). Point graph-node's
// `ethereum` setting at it instead of the chain. docker compose runs it in front of its Hardhat node.
import { startRpcAdapter } from "subgraph-workbench/graph-node";
import { maskUrl } from "subgraph-workbench/lib/redact";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  target: { type: "string", default: process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545" },
  port: { type: "string", default: "8546" },
  host: { type: "string", default: "127.0.0.1" },
});

try {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a number from 0 to 65535, got ${values.port}`);
  const adapter = await startRpcAdapter({ target: values.target, port, host: values.host });
  console.log(`rpc-adapter: ${values.host}:${adapter.port} -> ${maskUrl(values.target)} (eth_call: call data sent once, gas at the EIP-7825 cap)`);
  const stop = () => void adapter.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  fail(error);
}
