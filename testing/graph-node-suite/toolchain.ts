// The build toolchain graph-node's harness uses, in the scratch folder: gnd (graph-node's CLI, which
// carries graph-cli's commands; graph-node's harness runs `gnd codegen`/`gnd deploy` by default), the
// AssemblyScript compiler gnd requires on PATH (graph-node's workspace root pins it), and each case's
// pinned graph-ts, installed from the npm registry with npm as pnpm would lay out the workspace.
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { findGndBinary } from "subgraph-workbench/graph-node";
import { run } from "./checkout.js";

/** gnd 0.45 refuses any other asc (gnd/src/compiler/asc.rs); graph-node's root package.json pins the same. */
export const ASC_VERSION = "0.19.23";

export interface Toolchain {
  gnd: string;
  /** The environment gnd runs in: the scratch asc first on PATH. */
  env: NodeJS.ProcessEnv;
  /** Gives a case folder the graph-ts its package.json pins (one install per version). */
  linkDependencies(caseDir: string): Promise<void>;
}

export async function prepareToolchain(root: string, log: (line: string) => void): Promise<Toolchain> {
  const gnd = findGndBinary();
  await writeFile(join(root, "package.json"), JSON.stringify({ private: true }));
  log(`installing assemblyscript ${ASC_VERSION} (the asc gnd requires)`);
  await npmInstall(root, [`assemblyscript@${ASC_VERSION}`]);
  const env = { ...process.env, PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH ?? ""}` };
  const installs = new Map<string, Promise<string>>();
  const install = (version: string) => {
    let done = installs.get(version);
    if (!done) {
      const dir = join(root, "deps", `graph-ts-${version}`);
      log(`installing @graphprotocol/graph-ts ${version}`);
      done = mkdir(dir, { recursive: true })
        .then(() => writeFile(join(dir, "package.json"), JSON.stringify({ private: true })))
        .then(() => npmInstall(dir, [`@graphprotocol/graph-ts@${version}`]))
        .then(() => join(dir, "node_modules"));
      installs.set(version, done);
    }
    return done;
  };
  return {
    gnd,
    env,
    async linkDependencies(caseDir) {
      const manifest = JSON.parse(await readFile(join(caseDir, "package.json"), "utf8")) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
      const pinned = manifest.devDependencies?.["@graphprotocol/graph-ts"] ?? manifest.dependencies?.["@graphprotocol/graph-ts"];
      if (!pinned) return;
      const version = buildableGraphTs(pinned);
      if (version !== pinned) log(`${caseDir}: graph-ts ${version} instead of the pinned ${pinned} (gnd's codegen imports Int8, which ${pinned} lacks)`);
      await symlink(await install(version), join(caseDir, "node_modules"), "dir").catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
      });
    },
  };
}

/**
 * gnd's codegen writes `import { Int8 }` into generated/schema.ts, which graph-ts before 0.31 lacks (the
 * folders that pin 0.30 are built by graph-node with the graph-cli they pin, 0.50 or 0.54): those get 0.31.0,
 * the oldest graph-ts gnd's output compiles against.
 */
function buildableGraphTs(pinned: string): string {
  const [major = 0, minor = 0] = pinned.replace(/^[^0-9]*/, "").split(".").map(Number);
  return major === 0 && minor < 31 ? "0.31.0" : pinned;
}

function npmInstall(dir: string, packages: string[]): Promise<string> {
  return run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", ...packages], { cwd: dir });
}
