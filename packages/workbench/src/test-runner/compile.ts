// Compiles a test file exactly as Matchstick does, with the project's own AssemblyScript
// (graph-cli's bundled 0.19.x) run in-process so a suite compiles without one node start per file:
//   asc <file> <libs>/@graphprotocol/graph-ts/global/global.ts --lib <libs> --explicitStart
//       --exportTable --runtime stub --optimize --debug --outFile <out>
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { requireFromWorkbench } from "../lib/packageRoot.js";
import { CompilerError } from "./errors.js";

/** Matchstick's flags, in Matchstick's order (after the input files and `--lib`). */
export const MATCHSTICK_ASC_FLAGS = ["--explicitStart", "--exportTable", "--runtime", "stub", "--optimize", "--debug"] as const;

/**
 * The flags a run compiles with: Matchstick's, or (the default for running tests) the same without
 * `--optimize`. binaryen's optimizer is most of a cold compile (even as WebAssembly, below), and
 * it only rewrites code without changing what it does (no trap is removed); coverage (-c) keeps it,
 * because inlining decides which `call <handler>` instructions Matchstick's coverage finds.
 */
export function ascFlags(optimize: boolean): readonly string[] {
  // With a source map beside the wasm (`<name>.wasm.map`, named in the module's sourceMappingURL
  // section), a trap's frames are named by their AssemblyScript file, line and column (lib/wasmStack.ts).
  // It only adds that custom section: the code is the same.
  return [...(optimize ? MATCHSTICK_ASC_FLAGS : MATCHSTICK_ASC_FLAGS.filter((flag) => flag !== "--optimize")), "--sourceMap"];
}

export interface CompileResult {
  ok: boolean;
  /** asc's diagnostics (stderr) as printed, colour codes removed. */
  diagnostics: string;
  outFile: string;
}

export interface Compiler {
  /** The AssemblyScript version that compiles (part of the cache key). */
  readonly version: string;
  /** The argument list for one file, relative to the project root (for display and tests). */
  args(inFile: string, outFile: string): string[];
  compile(inFile: string, outFile: string): Promise<CompileResult>;
}

interface AscModule {
  ready: Promise<unknown>;
  version?: string;
  main(argv: string[], options: { stdout: Sink; stderr: Sink }, callback?: (err: Error | null) => number): number;
}
interface Sink {
  write(chunk: string | Uint8Array): boolean;
}

function memorySink(): Sink & { text(): string } {
  const chunks: string[] = [];
  return {
    write(chunk) {
      chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return true;
    },
    text: () => chunks.join(""),
  };
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

export const stripAnsi = (text: string): string => text.replace(ANSI, "");

/** Matchstick's asc arguments for one file, relative to the project root (asc runs with --baseDir root). */
export function ascArgs(root: string, libsFolder: string, inFile: string, outFile: string, flags: readonly string[] = MATCHSTICK_ASC_FLAGS): string[] {
  const rel = (p: string): string => relative(root, p) || ".";
  const globalTs = join(libsFolder, "@graphprotocol", "graph-ts", "global", "global.ts");
  return [rel(inFile), rel(globalTs), "--lib", rel(libsFolder), ...flags, "--outFile", rel(outFile)];
}

/** The project's assemblyscript when it has one, else ours (graph-cli's bundled version). */
export function locateAsc(libsFolder: string): string {
  const own = join(libsFolder, "assemblyscript", "cli", "asc.js");
  if (existsSync(own)) return own;
  try {
    return requireFromWorkbench.resolve("assemblyscript/cli/asc");
  } catch {
    // Neither the project nor the workbench can reach one.
  }
  throw new CompilerError("AssemblyScript compiler not found; install @graphprotocol/graph-cli", { details: { libsFolder } });
}

/**
 * asc 0.19 uses the binaryen in `global.binaryen` when one is there, else loads the package's
 * JavaScript translation. Its WebAssembly build (same release, beside it) emits the same bytes and
 * halves a cold optimized compile here (the project's test file: 4.3 -> 2.3 s; unoptimized 1.05 ->
 * 0.9 s). A compiler without that build keeps its own.
 */
function useBinaryenWasm(requireFromAsc: NodeJS.Require): void {
  const scope = globalThis as { binaryen?: unknown };
  if (scope.binaryen !== undefined) return;
  try {
    scope.binaryen = requireFromAsc("binaryen/wasm.js");
  } catch {
    // No WebAssembly build next to this compiler.
  }
}

export interface CompilerOptions {
  root: string;
  libsFolder: string;
  /** asc flags after `--lib` (default: Matchstick's). */
  flags?: readonly string[];
}

export async function createCompiler(options: CompilerOptions): Promise<Compiler> {
  const { root, libsFolder } = options;
  const globalTs = join(libsFolder, "@graphprotocol", "graph-ts", "global", "global.ts");
  if (!existsSync(globalTs)) {
    throw new CompilerError("@graphprotocol/graph-ts is not installed in the project's node_modules", { details: { expected: globalTs } });
  }
  const ascPath = locateAsc(libsFolder);
  const require = createRequire(ascPath);
  useBinaryenWasm(require);
  let asc: AscModule;
  try {
    asc = require(ascPath) as AscModule;
    await asc.ready;
  } catch (cause) {
    throw new CompilerError("could not load the AssemblyScript compiler", { cause, details: { ascPath } });
  }
  const version = asc.version ?? "unknown";
  const args = (inFile: string, outFile: string): string[] => ascArgs(root, libsFolder, inFile, outFile, options.flags);

  return {
    version,
    args,
    async compile(inFile, outFile) {
      mkdirSync(dirname(outFile), { recursive: true });
      const stdout = memorySink();
      const stderr = memorySink();
      let code: number;
      try {
        // asc resolves inputs, --lib and --outFile against baseDir: the project root, like Matchstick's cwd.
        code = asc.main([...args(inFile, outFile), "--baseDir", root], { stdout, stderr });
      } catch (cause) {
        throw new CompilerError("the AssemblyScript compiler crashed", { cause, details: { file: inFile } });
      }
      const diagnostics = stripAnsi(stderr.text() + stdout.text());
      return { ok: code === 0 && existsSync(outFile), diagnostics, outFile };
    },
  };
}
