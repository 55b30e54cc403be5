import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The workbench package's folder (its package.json), whether the code runs from src/ or from dist/. */
export const packageRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** Resolves a module as the workbench itself would: its own dependencies, wherever npm put them. */
export const requireFromWorkbench = createRequire(join(packageRoot, "package.json"));

/**
 * A folder for the workbench's caches (PGlite's pristine data folder, say): `node_modules/.cache/<name>`
 * of the project that installed it, or of the workbench's own folder when it is not installed under one.
 */
export function cacheFolder(name: string): string {
  const parent = dirname(packageRoot);
  const nodeModules = basename(parent) === "node_modules" ? parent : basename(dirname(parent)) === "node_modules" ? dirname(parent) : join(packageRoot, "node_modules");
  return join(nodeModules, ".cache", "subgraph-workbench", name);
}
