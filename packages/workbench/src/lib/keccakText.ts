// keccak256 of a text's UTF-8 bytes as 0x-prefixed lowercase hex (ethers' `id`): event topics and
// function selectors. @noble/hashes alone, so that a thread which only needs the hash loads no ABI coder.
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

export function keccakText(text: string): string {
  return `0x${bytesToHex(keccak_256(utf8ToBytes(text)))}`;
}
