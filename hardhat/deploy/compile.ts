import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import { projectRoot } from "../projectRoot.js";

/** Compiles the contracts with Hardhat (a no-op when nothing changed), so tests run on a fresh clone. */
export async function ensureCompiled(): Promise<void> {
  await promisify(execFile)(process.execPath, [join(projectRoot, "node_modules", "hardhat", "dist", "src", "cli.js"), "build", "--quiet"], {
    cwd: projectRoot,
  });
}
