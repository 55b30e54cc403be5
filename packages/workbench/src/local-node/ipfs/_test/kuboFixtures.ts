// Content/CID pairs published by Kubo's own tests (test/sharness/t0040-add-and-cat.sh and
// test/cli/add_test.go), all with `ipfs add` defaults (CIDv0, size-262144, 174 links, no raw leaves).
import { createCipheriv, createHash } from "node:crypto";

export const SMALL_FILES: { text: string; cid: string }[] = [
  { text: "", cid: "QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH" },
  { text: "hello world\n", cid: "QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o" },
  { text: "hello world", cid: "Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD" },
  { text: "Hello Worlds!\n", cid: "QmVr26fY1tKyspEJBniVhqxQeEjhF78XerGiqWAwraVLQH" },
  { text: "Helloo Worlds!\n", cid: "Qmf35k66MZNW2GijohUmXQEWKZU4cCGTCwK6idfnt152wJ" },
  { text: "IPFS\n", cid: "QmdFyxZXsFiP4csgfM5uPu99AvFiKH62CSPDw5TP92nr7w" },
];

/** t0040 "ipfs add -r .": test_current_dir/{hey: "Hey\n", hello/world: "World\n"}. */
export const DIRECTORY = {
  files: [
    { path: "test_current_dir/hey", text: "Hey\n" },
    { path: "test_current_dir/hello/world", text: "World\n" },
  ],
  rootName: "test_current_dir",
  rootCid: "QmZQWnfcqJ6hNkkPvrY9Q5X39GP3jUnUbAV4AbmbbR3Cb1",
};

/**
 * Kubo's test harness `IPFSAddDeterministic(size, seed)`: the ChaCha20 keystream (key = sha256(seed),
 * zero nonce, counter 0). add_test.go pins the CIDs of "44544KiB" (exactly 174 chunks: one level) and
 * "44800KiB" (175 chunks: the balanced layout adds a level) for seed "v0-seed".
 */
export function kuboDeterministicBytes(seed: string, size: number): Uint8Array {
  const key = createHash("sha256").update(seed).digest();
  // OpenSSL's chacha20 IV = 4-byte little-endian counter + 12-byte nonce, all zero here.
  const cipher = createCipheriv("chacha20", key, Buffer.alloc(16));
  return new Uint8Array(cipher.update(Buffer.alloc(size)));
}

export const MULTI_CHUNK = [
  { seed: "v0-seed", size: 44544 * 1024, cid: "QmUbBALi174SnogsUzLpYbD4xPiBSFANF4iztWCsHbMKh2", rootLinks: 174 },
  { seed: "v0-seed", size: 44800 * 1024, cid: "QmepeWtdmS1hHXx1oZXsPUv6bMrfRRKfZcoPPU4eEfjnbf", rootLinks: 2 },
];
