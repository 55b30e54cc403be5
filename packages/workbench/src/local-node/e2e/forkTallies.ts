// What the fork-tally fixture (`_test/fork-tally`) must hold after a debug fork, computed from the
// chain's own Approval logs: the totals over both phases of the owners and spenders the second phase
// (the forked deployment's own blocks) touched. Shared by the debug-fork tests.
import { chainApprovals } from "./harness.js";

/** The fixture's Int8 field grows by this per approval (above 2^53: exact only as a string). */
export const INT8_STEP = 9007199254740993n;

export interface ForkTallies {
  owners: { id: string; approvals: number; total: string; big: string; label: string; lastSpender: string | { id: string } }[];
  spenders: { id: string; approvals: number }[];
}

/** `lastSpender` as the query asks it: the reference's `{ id }`, or the id itself (a plain field). */
export async function chainForkTallies(chainUrl: string, token: string, startBlock: number, phase2From: number, reference: boolean): Promise<ForkTallies> {
  const all = await chainApprovals(chainUrl, token, startBlock);
  const phase2 = await chainApprovals(chainUrl, token, phase2From);
  const owners = [...new Set(phase2.map((x) => x.owner))].sort().map((owner) => {
    const mine = all.filter((x) => x.owner === owner);
    const last = mine[mine.length - 1]!.spender;
    return {
      id: owner,
      approvals: mine.length,
      total: mine.reduce((s, x) => s + BigInt(x.value), 0n).toString(),
      big: (INT8_STEP * BigInt(mine.length)).toString(),
      label: `owner with ${mine.length} approvals`,
      lastSpender: reference ? { id: last } : last,
    };
  });
  const spenders = [...new Set(phase2.map((x) => x.spender))].sort().map((id) => ({ id, approvals: all.filter((x) => x.spender === id).length }));
  return { owners, spenders };
}
