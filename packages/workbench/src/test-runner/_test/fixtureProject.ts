// Materializes the AssemblyScript fixture project in a temp dir: `*.as.ts` sources become `.test.ts`
// test files (helpers and src become plain `.ts`), and node_modules links to ours.
import { cpSync, mkdtempSync, readdirSync, renameSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";

const here = dirname(fileURLToPath(import.meta.url));
const HELPERS = new Set(["helpers.as.ts", "mapping.as.ts", "trapping.as.ts"]);

function rename(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) rename(full);
    else if (entry.name.endsWith(".as.ts")) {
      const base = entry.name.slice(0, -".as.ts".length);
      renameSync(full, join(dir, HELPERS.has(entry.name) ? `${base}.ts` : `${base}.test.ts`));
    }
  }
}

export function createFixtureProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "runner-project-"));
  cpSync(join(here, "project"), dir, { recursive: true });
  rename(dir);
  symlinkSync(join(projectRoot, "node_modules"), join(dir, "node_modules"));
  return dir;
}
