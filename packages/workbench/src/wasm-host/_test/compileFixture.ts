// Compiles AssemblyScript fixture sources exactly as graph-cli builds mappings (asc 0.19 from
// graph-cli's dependency tree, graph-ts's global.ts, --explicitStart --exportRuntime --runtime stub
// --optimize --debug), caching the wasm in a temp dir keyed by the source and compiler inputs.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = projectRoot;
const require = createRequire(join(root, "node_modules/@graphprotocol/graph-cli/package.json"));

interface Asc {
  ready: Promise<void>;
  version: string;
  main(argv: string[], options: Record<string, unknown>, callback?: (err: Error | null) => number): number;
}

/** Returns the wasm bytes of `_test/<name>`, compiling it on first use. */
export async function compileFixture(name: string): Promise<Uint8Array> {
  const source = join(here, name);
  const globalTs = join(root, "node_modules/@graphprotocol/graph-ts/global/global.ts");
  const asc = require("assemblyscript/cli/asc") as Asc;
  const graphTsVersion = (JSON.parse(readFileSync(join(root, "node_modules/@graphprotocol/graph-ts/package.json"), "utf8")) as { version: string }).version;
  // The source's path is part of the key: asc writes it into abort messages the tests read.
  const key = createHash("sha256").update(relative(root, source)).update(readFileSync(source)).update(asc.version).update(graphTsVersion).digest("hex").slice(0, 24);
  const cacheDir = join(tmpdir(), "wasm-host-fixtures");
  const out = join(cacheDir, `${name.replace(/\W/g, "_")}-${key}.wasm`);
  if (existsSync(out)) return new Uint8Array(readFileSync(out));
  mkdirSync(cacheDir, { recursive: true });
  await asc.ready;
  const tmpOut = `${out}.${process.pid}.tmp`;
  let stderr = "";
  const sink = { write: (chunk: string | Uint8Array) => ((stderr += chunk.toString()), true) };
  const argv = [
    "--explicitStart",
    "--exportRuntime",
    "--runtime",
    "stub",
    source,
    globalTs,
    "--baseDir",
    root,
    "--lib",
    join(root, "node_modules"),
    "--outFile",
    tmpOut,
    "--optimize",
    "--debug",
  ];
  let failure: Error | null = null;
  asc.main(argv, { stdout: sink, stderr: sink }, (err) => {
    failure = err;
    return 0;
  });
  if (failure !== null || !existsSync(tmpOut)) throw new Error(`asc failed for ${name}:\n${stderr}${failure === null ? "" : String(failure)}`);
  renameSync(tmpOut, out);
  return new Uint8Array(readFileSync(out));
}

/** Writes bytes somewhere temporary (debug helper for failing fixtures). */
export function dumpWasm(bytes: Uint8Array, name: string): string {
  const path = join(tmpdir(), name);
  writeFileSync(path, bytes);
  return path;
}
