// Finds test files as Matchstick does: every `*.test.ts` under the tests folder, named by its path
// relative to that folder without `.test.ts` (lowercase, as Matchstick), and filtered by the names
// given on the command line (`graph test <name>`: a folder or file prefix under the tests folder).
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { ConfigError, DiscoveryError } from "./errors.js";

export interface TestFile {
  /** e.g. `approval` or `gravity/gravity` (Matchstick's suite name and `.bin/<name>.wasm`). */
  name: string;
  /** Absolute path of the `.test.ts` file. */
  path: string;
}

function collect(dir: string, prefix: string, out: TestFile[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const lower = entry.name.toLowerCase();
    const full = join(dir, entry.name);
    if (entry.isFile() && lower.endsWith(".test.ts")) {
      out.push({ name: prefix + lower.slice(0, -".test.ts".length), path: full });
    } else if (entry.isDirectory() && entry.name !== "node_modules" && entry.name !== ".bin") {
      collect(full, `${prefix}${lower}/`, out);
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A pattern is a regex prefix of `<testsFolder>/<pattern>`, case-insensitive (Matchstick's RegexSet). */
function patternMatcher(testsFolder: string, pattern: string): RegExp {
  const base = escapeRegExp(testsFolder.split(sep).join("/").toLowerCase() + "/");
  try {
    return new RegExp(`^${base}${pattern.toLowerCase()}`);
  } catch {
    return new RegExp(`^${base}${escapeRegExp(pattern.toLowerCase())}`);
  }
}

/** All test files, sorted by name, optionally filtered. Throws when the folder is missing or nothing matches. */
export function discoverTests(testsFolder: string, patterns: string[] = []): TestFile[] {
  if (!existsSync(testsFolder) || !statSync(testsFolder).isDirectory()) {
    throw new ConfigError(`tests folder not found: ${testsFolder}`, { details: { testsFolder } });
  }
  const all: TestFile[] = [];
  collect(testsFolder, "", all);
  all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (all.length === 0) {
    throw new DiscoveryError(`No tests have been written yet (no *.test.ts under ${testsFolder}).`, { details: { testsFolder } });
  }
  if (patterns.length === 0) return all;
  const matchers = patterns.map((p) => patternMatcher(testsFolder, p));
  const picked = all.filter((file) => {
    const normalized = file.path.split(sep).join("/").toLowerCase();
    return matchers.some((m) => m.test(normalized));
  });
  if (picked.length === 0) {
    throw new DiscoveryError(`No tests match set patterns: ${patterns.join(",")}`, { details: { patterns } });
  }
  return picked;
}

/** Display path relative to the project root. */
export function displayPath(root: string, file: string): string {
  return relative(root, file).split(sep).join("/");
}
