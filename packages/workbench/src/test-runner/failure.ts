// A failed call as Matchstick prints it: the error's message, then the wasm frames of its stack
// (function names come from the `--debug` name section), so a failure points into the test source.
export function wasmFrames(stack: string | undefined): string[] {
  if (!stack) return [];
  const frames: string[] = [];
  for (const line of stack.split("\n")) {
    // V8: "    at start:tests/x.test~anonymous|0 (wasm://wasm/1a2b3c:wasm-function[42]:0x1f00)"
    const m = /^\s*at (.+?) \(wasm:\/\/wasm\/[^:]+:wasm-function\[\d+\]:(0x[0-9a-f]+)\)/.exec(line);
    if (m) frames.push(`${m[2]} - ${m[1]}`);
  }
  return frames;
}

export function formatError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  let message = err.message;
  const seen = new Set<unknown>([err]);
  let frames = wasmFrames(err.stack);
  // Host errors may wrap the original throw: take the first wasm backtrace found along the causes.
  let cause: unknown = err.cause;
  while (frames.length === 0 && cause instanceof Error && !seen.has(cause)) {
    seen.add(cause);
    frames = wasmFrames(cause.stack);
    cause = cause.cause;
  }
  if (frames.length > 0) message += `\nwasm backtrace:\n${frames.map((f, i) => `  ${i}: ${f}`).join("\n")}`;
  return message;
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
