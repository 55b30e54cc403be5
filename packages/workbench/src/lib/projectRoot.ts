import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const parent = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The project's root folder (where package.json is), wherever the code runs from: its sources, or
 * their compiled copy in `<root>/.build` (scripts/runCompiled.mjs).
 */
export const projectRoot = basename(parent) === ".build" ? dirname(parent) : parent;
