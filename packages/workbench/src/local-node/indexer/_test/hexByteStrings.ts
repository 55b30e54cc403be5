// Test helper: run triggers compared whatever form their byte strings took. The worker reads packed byte
// strings as bytes, the loader keeps some as 0x hex text; the host writes both alike.

/** `v` with every byte string (bytes, or 0x hex text in any case) as lowercase 0x hex, at any depth. */
export function hexByteStrings<T>(v: T): T {
  if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString("hex")}` as T;
  if (typeof v === "string" && /^0x[0-9a-fA-F]*$/.test(v)) return v.toLowerCase() as T;
  if (Array.isArray(v)) return v.map(hexByteStrings) as T;
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, hexByteStrings(x)])) as T;
  return v;
}
