// The sections of a WebAssembly module's binary: an id byte, a LEB128 size, the payload. Enough to tell
// whether two builds of a mapping carry the same code at the same byte offsets (a source-mapped compile
// adds custom sections after it), so that one build's source map places the other's trap frames.
import { readUleb128 } from "./leb128.js";

const MAGIC_AND_VERSION = 8;
const CODE_SECTION = 10;

/** Where the module's code section ends (the sections before it included); null when none or no module. */
export function codeSectionEnd(bytes: Uint8Array): number | null {
  if (bytes.length < MAGIC_AND_VERSION || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) return null;
  for (let at = MAGIC_AND_VERSION; at < bytes.length; ) {
    const id = bytes[at]!;
    const size = readUleb128(bytes, at + 1, 5);
    if (!size || size.next + size.value > bytes.length) return null;
    if (id === CODE_SECTION) return size.next + size.value;
    at = size.next + size.value;
  }
  return null;
}

/** Whether both modules are byte for byte the same up to the end of their code: same code, same offsets. */
export function sameCodeAndOffsets(a: Uint8Array, b: Uint8Array): boolean {
  const end = codeSectionEnd(a);
  return end !== null && end === codeSectionEnd(b) && Buffer.from(a.buffer, a.byteOffset, end).equals(Buffer.from(b.buffer, b.byteOffset, end));
}
