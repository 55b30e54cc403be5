// Where a project's tests, manifest and libraries are: matchstick.yaml (testsFolder, libsFolder,
// manifestPath) with Matchstick's defaults, resolved against the project root.
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { parse } from "yaml";
import { ConfigError } from "./errors.js";

export interface RunnerConfig {
  /** Absolute project root (the working directory, or `--root`). */
  root: string;
  /** Absolute tests folder (`testsFolder`, default ./tests). */
  testsFolder: string;
  /** Absolute node_modules of the project (`libsFolder`, default ./node_modules). */
  libsFolder: string;
  /** Absolute subgraph manifest (`manifestPath`, default ./subgraph.yaml). */
  manifestPath: string;
  /** testsFolder as written (relative), used for name filters and display. */
  testsFolderDisplay: string;
}

const DEFAULTS = { testsFolder: "./tests", libsFolder: "./node_modules", manifestPath: "./subgraph.yaml" };

function stringOr(value: unknown, key: string, fallback: string): string {
  if (value && typeof value === "object" && key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === "string" && v.length > 0) return v;
  }
  return fallback;
}

/** Reads `<root>/matchstick.yaml` when present; missing keys (or an empty file) keep the defaults, as Matchstick. */
export function resolveConfig(root: string): RunnerConfig {
  const absRoot = resolve(root);
  if (!existsSync(absRoot)) throw new ConfigError("project root does not exist", { details: { root: absRoot } });
  const yamlPath = resolve(absRoot, "matchstick.yaml");
  let parsed: unknown = null;
  if (existsSync(yamlPath)) {
    try {
      parsed = parse(readFileSync(yamlPath, "utf8"));
    } catch (cause) {
      throw new ConfigError("matchstick.yaml is not valid YAML", { cause, details: { path: yamlPath } });
    }
  }
  const testsFolder = stringOr(parsed, "testsFolder", DEFAULTS.testsFolder);
  const libsFolder = stringOr(parsed, "libsFolder", DEFAULTS.libsFolder);
  const manifestPath = stringOr(parsed, "manifestPath", DEFAULTS.manifestPath);
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(absRoot, p));
  return {
    root: absRoot,
    testsFolder: abs(testsFolder),
    libsFolder: abs(libsFolder),
    manifestPath: abs(manifestPath),
    testsFolderDisplay: testsFolder,
  };
}
