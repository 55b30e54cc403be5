import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../../hardhat/projectRoot.js";

/** The default version label: the package version plus the short git commit, e.g. `0.1.0-1a2b3c4`. */
export function defaultVersionLabel(): string {
  const { version } = JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { version: string };
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: projectRoot, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    return commit ? `${version}-${commit}` : version;
  } catch {
    return version;
  }
}
