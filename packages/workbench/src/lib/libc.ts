// glibc's functions through koffi (a foreign-function library), for the few process settings Node has no
// call for. Required when first asked for, not imported: a koffi or libc that cannot load here costs the
// caller's feature, not the process.
import { createRequire } from "node:module";

let libc: { func(signature: string): unknown } | string | null = null;

/** The libc function with this C signature, or why it cannot be had here. */
export function libcFunction<T>(signature: string): T | string {
  if (process.platform !== "linux") return `glibc is Linux's, and this is ${process.platform}`;
  if (libc === null) {
    try {
      const koffi = createRequire(import.meta.url)("koffi") as typeof import("koffi");
      libc = koffi.load("libc.so.6");
    } catch (err) {
      libc = `no glibc here (${err instanceof Error ? err.message : String(err)})`;
    }
  }
  if (typeof libc === "string") return libc;
  try {
    return libc.func(signature) as T;
  } catch (err) {
    return `no ${signature} in this libc (${err instanceof Error ? err.message : String(err)})`;
  }
}
