// `npm run bench:ipfs`: the node's IPFS store and RPC server throughput (local-node/ipfs/ipfsStore.bench.ts).
import { runIpfsBench } from "../../packages/workbench/src/local-node/ipfs/ipfsStore.bench.js";

await runIpfsBench();
