import { describe, expect, it } from "vitest";
import { checkGraftBase } from "./graftBase.js";
import type { DeploymentRecord } from "../store/index.js";

function storeWith(record: Partial<DeploymentRecord> | null) {
  return {
    getDeployment: async () => (record === null ? null : ({ health: "healthy", earliestBlock: 0, latestBlock: null, ...record } as DeploymentRecord)),
    recentBlockHash: async (_id: string, n: number) => `0x${n.toString(16).padStart(64, "0")}`,
  };
}
const at = (number: number) => ({ number, hash: `0x${number.toString(16).padStart(64, "0")}` });

describe("checkGraftBase (graph-node's Graft::validate)", () => {
  it("accepts a base that indexed the graft block and the reorg threshold beyond it", async () => {
    expect(await checkGraftBase(storeWith({ latestBlock: at(30) }), { base: "QmB", block: 20 }, 10)).toEqual({ graft: { base: "QmB", block: at(20) } });
  });

  it("words each refusal as graph-node does", async () => {
    const invalid = async (record: Partial<DeploymentRecord> | null, block: number) => ((await checkGraftBase(storeWith(record), { base: "QmB", block }, 10)) as { invalid: string }).invalid;
    expect(await invalid(null, 5)).toBe("deployment not found: QmB");
    expect(await invalid({}, 5)).toBe("failed to graft onto `QmB` since it has not processed any blocks");
    expect(await invalid({ latestBlock: at(4) }, 5)).toBe("failed to graft onto `QmB` at block 5 since it has only processed block 4");
    expect(await invalid({ latestBlock: at(12) }, 5)).toBe("failed to graft onto `QmB` at block 5 since it's only at block 12 which is within the reorg threshold of 10 blocks");
    expect(await invalid({ latestBlock: at(12), health: "failed" }, 12)).toBe("failed to graft onto `QmB` at block 12 since it's not healthy. You can graft it starting at block 11 backwards");
    expect(await invalid({ latestBlock: at(40), earliestBlock: 20 }, 15)).toBe("failed to graft onto `QmB` at block 15 since its earliest available block is 20");
  });
});
