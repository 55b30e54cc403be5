// A failed call as Matchstick prints it: the error's message, then the wasm frames of its stack
// (function names come from the `--debug` name section), each with its AssemblyScript file, line and
// column when the compile made a source map, so a failure points into the source.
import { formatPosition, wasmFramesOf, wasmStackFrames, type SourceLocator } from "../lib/wasmStack.js";

export function wasmFrames(stack: string | undefined, locate?: SourceLocator): string[] {
  return wasmStackFrames(stack).map((f) => {
    const at = locate?.(f.offset);
    return `0x${f.offset.toString(16)} - ${f.name}${at ? ` at ${formatPosition(at)}` : ""}`;
  });
}

export function formatError(err: unknown, locate?: SourceLocator): string {
  if (!(err instanceof Error)) return String(err);
  // Host errors may wrap the original throw: the first wasm backtrace found along the causes.
  const frames = wasmFramesOf(err).map((f) => {
    const at = locate?.(f.offset);
    return `0x${f.offset.toString(16)} - ${f.name}${at ? ` at ${formatPosition(at)}` : ""}`;
  });
  return frames.length > 0 ? `${err.message}\nwasm backtrace:\n${frames.map((f, i) => `  ${i}: ${f}`).join("\n")}` : err.message;
}

/** The innermost frame of the error's backtrace that the source map places in the project's own code (not ~lib). */
export function sourceLine(err: unknown, locate: SourceLocator): string | null {
  for (const f of wasmFramesOf(err)) {
    const at = locate(f.offset);
    if (at && !at.source.startsWith("~lib/")) return `${formatPosition(at)} (in ${f.name})`;
  }
  return null;
}

/** The 1-based line where a test named `name` is declared (its name as a string literal), if found. */
export function declarationLine(source: string, name: string): number | null {
  const lines = source.split("\n");
  for (const quote of ['"', "'", "`"]) {
    const literal = quote + name.replace(/\\/g, "\\\\").replaceAll(quote, `\\${quote}`) + quote;
    const index = lines.findIndex((line) => line.includes(literal));
    if (index >= 0) return index + 1;
  }
  return null;
}
