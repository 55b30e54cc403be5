import { createHash } from "node:crypto";
import bs58 from "bs58";
import type { FixtureAccount } from "./agaveEncoding.js";

/** A deterministic 32-byte public key for a label. */
export function keyFor(label: string): string {
  return bs58.encode(createHash("sha256").update(label).digest());
}

export const SYSTEM_PROGRAM = "11111111111111111111111111111111";
export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const LOADER = "BPFLoaderUpgradeab1e11111111111111111111111";

const bytes = (n: number, f: (i: number) => number) => Uint8Array.from({ length: n }, (_, i) => f(i) & 0xff);

export const SMALL = keyFor("small");
export const EXACTLY_128 = keyFor("exactly-128");
export const LARGE = keyFor("large");
export const EMPTY = keyFor("empty");
export const MINT = keyFor("mint");
export const PROGRAM = keyFor("program");
export const MISSING = keyFor("missing");

export const MINT_PARSED = {
  program: "spl-token",
  parsed: { type: "mint", info: { decimals: 6, freezeAuthority: null, isInitialized: true, mintAuthority: SMALL, supply: "1000000000" } },
};

export function fixtureAccounts(): Map<string, FixtureAccount> {
  return new Map<string, FixtureAccount>([
    [SMALL, { lamports: 1_000_000_000n, owner: SYSTEM_PROGRAM, data: bytes(10, (i) => i + 1) }],
    [EXACTLY_128, { lamports: 5n, owner: SYSTEM_PROGRAM, data: bytes(128, (i) => i * 7) }],
    // Repetitive, so zstd really shrinks it.
    [LARGE, { lamports: 2n ** 60n + 1n, owner: SYSTEM_PROGRAM, data: bytes(4_000, (i) => i % 16), rentEpoch: 361n }],
    [EMPTY, { lamports: 890_880n, owner: SYSTEM_PROGRAM, data: new Uint8Array(0) }],
    [MINT, { lamports: 1_461_600n, owner: TOKEN_PROGRAM, data: bytes(82, (i) => 255 - i), parsed: MINT_PARSED }],
    [PROGRAM, { lamports: 1_141_440n, owner: LOADER, data: bytes(36, (i) => i), executable: true }],
  ]);
}
