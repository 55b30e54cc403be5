// Builds the package for running: src/ compiled to dist/ by tsc (with declarations), and the plain
// JavaScript modules the compiled code loads by path (worker boot files) copied beside it. It runs when
// the package is packed and when the workspace is installed: no command compiles anything when it starts.
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const source = join(packageDir, "src");
const output = join(packageDir, "dist");

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const result = spawnSync(process.execPath, [tsc, "-p", join(packageDir, "tsconfig.json")], { stdio: "inherit" });
if (result.error) throw result.error;
if (result.status !== 0) process.exit(result.status ?? 1);

function copyModules(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "_test" || entry.name === "e2e") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) copyModules(path);
    else if (entry.name.endsWith(".mjs")) cpSync(path, join(output, relative(source, path)));
  }
}
copyModules(source);
