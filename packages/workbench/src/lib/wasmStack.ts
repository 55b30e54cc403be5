// Where in a mapping a trap happened: the wasm frames of V8's stack (each with its function's name from
// the module's name section and its byte offset in the module), and, when the compile made a source map
// (asc --sourceMap), the AssemblyScript file, line and column of each frame. A wasm source map's
// "column" is the byte offset in the module, on line 1.
import { TraceMap, originalPositionFor } from "@jridgewell/trace-mapping";

export interface WasmFrame {
  /** The function's name in the name section (AssemblyScript's `file/function`), or V8's stand-in. */
  name: string;
  functionIndex: number;
  /** Byte offset in the module. */
  offset: number;
}

export interface SourcePosition {
  source: string;
  line: number;
  column: number;
}

/** From a source map's text: the source position of a byte offset, or null when it maps to none. */
export type SourceLocator = (offset: number) => SourcePosition | null;

// V8: "    at src/mapping/handleX (wasm://wasm/1a2b3c4d:wasm-function[42]:0x1f00)"
const FRAME = /^\s*at (?:(.+?) \()?wasm:\/\/wasm\/[^:]+:wasm-function\[(\d+)\]:(0x[0-9a-f]+)\)?\s*$/i;

export function wasmStackFrames(stack: string | undefined): WasmFrame[] {
  const frames: WasmFrame[] = [];
  for (const line of (stack ?? "").split("\n")) {
    const m = FRAME.exec(line);
    if (m) frames.push({ name: m[1] ?? `wasm-function[${m[2]}]`, functionIndex: Number(m[2]), offset: Number.parseInt(m[3]!, 16) });
  }
  return frames;
}

/** The wasm frames of the error, or of the first of its causes that has some (host errors wrap the trap). */
export function wasmFramesOf(err: unknown): WasmFrame[] {
  const seen = new Set<unknown>();
  for (let e: unknown = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    const frames = wasmStackFrames(e.stack);
    if (frames.length > 0) return frames;
  }
  return [];
}

export function sourceLocator(sourceMapText: string): SourceLocator {
  // asc names the wasm file as the sources' root ("./x.wasm"): without it the sources are the paths
  // asc was given, relative to its base folder (the project's root), as its diagnostics name them.
  const raw = JSON.parse(sourceMapText) as { sourceRoot?: string };
  delete raw.sourceRoot;
  const map = new TraceMap(raw as ConstructorParameters<typeof TraceMap>[0]);
  return (offset) => {
    const p = originalPositionFor(map, { line: 1, column: offset });
    // trace-mapping's columns are 0-based; AssemblyScript's (and editors') 1-based.
    return p.source === null || p.line === null ? null : { source: p.source, line: p.line, column: (p.column ?? 0) + 1 };
  };
}

export const formatPosition = (p: SourcePosition): string => `${p.source}:${p.line}:${p.column}`;

/** A frame as a line: its function, and its source position when the locator knows it. */
export function describeFrame(frame: WasmFrame, locate?: SourceLocator): string {
  const at = locate?.(frame.offset);
  return at ? `${frame.name} (${formatPosition(at)})` : `${frame.name} (wasm function ${frame.functionIndex}, offset 0x${frame.offset.toString(16)})`;
}

/** The frames innermost first, joined as the calls that led there. */
export function describeFrames(frames: readonly WasmFrame[], locate?: SourceLocator): string {
  return frames.map((f) => describeFrame(f, locate)).join(" <- ");
}
