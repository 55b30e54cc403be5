// Builds the package for running: src/ compiled to dist/ by tsc (with declarations), the plain
// JavaScript modules the compiled code loads by path (worker boot files) and the files of `assets/`
// folders (the dashboard's browser script and styles) copied beside it, and the
// pristine PGlite folder a new local node starts from (dist/pglite-templates: made once here, so no
// user's first start runs PGlite's initdb). It runs when the package is packed and when the workspace is
// installed: no command compiles or initialises anything when it starts.
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

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
    else if (entry.name.endsWith(".mjs") || basename(dir) === "assets") cpSync(path, join(output, relative(source, path)));
  }
}
copyModules(source);

const { createNodeStoreTemplate } = await import(pathToFileURL(join(output, "local-node", "store", "index.js")).href);
const templates = join(output, "pglite-templates");
// Only the current one: a template of an older PGlite or schema would ship for nothing.
const current = await createNodeStoreTemplate(templates);
for (const entry of readdirSync(templates)) if (!join(templates, entry).startsWith(current)) rmSync(join(templates, entry), { recursive: true, force: true });
// npm's tarballs hold no empty folders, and PostgreSQL's data folder needs its own (pg_notify, pg_wal/...):
// they are listed beside it, and made again when a node copies it.
const emptyFolders = [];
const listEmpty = (dir) => {
  const entries = readdirSync(dir, { withFileTypes: true });
  if (entries.length === 0) emptyFolders.push(relative(current, dir));
  for (const entry of entries) if (entry.isDirectory()) listEmpty(join(dir, entry.name));
};
listEmpty(current);
writeFileSync(`${current}.empty-folders.json`, `${JSON.stringify(emptyFolders)}\n`);
