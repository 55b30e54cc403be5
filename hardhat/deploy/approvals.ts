import { Contract, MaxUint256, getAddress, keccak256, toBeHex, type Signer } from "ethers";
import { readArtifact } from "./artifacts.js";
import { connectChain } from "./signers.js";

export interface SendApprovalsParameters {
  rpcUrl: string;
  /** The proxy address. */
  token: string;
  count: number;
  privateKey?: string;
  /** Approvals per transaction once `count` is larger than the number of owners (approveMany). */
  batchSize?: number;
  /** Varies spenders and values between runs, so repeated runs add new data. */
  seed?: number;
}

export interface SentApprovals {
  txHashes: string[];
  approvals: number;
  firstBlock: number;
  lastBlock: number;
}

/** A deterministic spread of spender addresses. */
export function sampleSpender(i: number, seed = 0): string {
  return getAddress("0x" + keccak256(toBeHex(BigInt(seed) * 1_000_000_007n + BigInt(i), 32)).slice(26));
}

/** Sample values: the edges first (0 and 2^256-1), then a mix of small and token-scaled amounts. */
export function sampleValue(i: number): bigint {
  if (i === 0) return 0n;
  if (i === 1) return MaxUint256;
  return i % 2 === 0 ? BigInt(i) * 10n ** 18n : BigInt(i * 7919);
}

/**
 * Emits `count` standard Approval events from the token's proxy address, with owners rotating over the
 * available signers. Small counts use one `approve` per transaction; larger ones batch with
 * `approveMany`, which emits the same event once per spender.
 */
export async function sendApprovals(params: SendApprovalsParameters): Promise<SentApprovals> {
  const { provider, signers } = await connectChain(params.rpcUrl, params.privateKey);
  const { abi } = await readArtifact("ApprovalToken");
  const owners = signers.slice(0, 10);
  const batchSize = params.count <= owners.length * 2 ? 1 : Math.max(1, params.batchSize ?? 400);
  const seed = params.seed ?? 0;
  const txHashes: string[] = [];
  let firstBlock = Number.POSITIVE_INFINITY;
  let lastBlock = 0;

  try {
    for (let start = 0, tx = 0; start < params.count; start += batchSize, tx++) {
      const owner = owners[tx % owners.length] as Signer;
      const token = new Contract(params.token, abi, owner);
      const end = Math.min(params.count, start + batchSize);
      const spenders: string[] = [];
      const values: bigint[] = [];
      for (let i = start; i < end; i++) {
        spenders.push(sampleSpender(i, seed));
        values.push(sampleValue(i));
      }
      const sent =
        spenders.length === 1
          ? await (token.getFunction("approve")(spenders[0], values[0]) as Promise<{ hash: string; wait(): Promise<{ blockNumber: number } | null> }>)
          : await (token.getFunction("approveMany")(spenders, values) as Promise<{ hash: string; wait(): Promise<{ blockNumber: number } | null> }>);
      const receipt = await sent.wait();
      txHashes.push(sent.hash);
      if (receipt) {
        firstBlock = Math.min(firstBlock, receipt.blockNumber);
        lastBlock = Math.max(lastBlock, receipt.blockNumber);
      }
    }
  } finally {
    provider.destroy();
  }
  return { txHashes, approvals: params.count, firstBlock: Number.isFinite(firstBlock) ? firstBlock : 0, lastBlock };
}
