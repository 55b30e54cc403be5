// The graph-node build npm ships: @graphprotocol/gnd-linux-x64 (graph-node v0.45 with a `gnd dev`
// mode). It is an optional dependency; the registry has it for linux-x64 only.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { requireFromWorkbench } from "../lib/packageRoot.js";
import { GraphNodeError } from "./errors.js";

export const GND_PACKAGE = "@graphprotocol/gnd-linux-x64";

export function findGndBinary(platform: string = process.platform, arch: string = process.arch): string {
  if (platform !== "linux" || arch !== "x64") {
    throw new GraphNodeError(`graph-node (gnd) is on npm for linux-x64 only, and this machine is ${platform}-${arch}: use the local node (the default engine), or docker compose`, {
      code: "GND_UNSUPPORTED_PLATFORM",
      details: { platform, arch },
    });
  }
  let packageJson: string;
  try {
    packageJson = requireFromWorkbench.resolve(`${GND_PACKAGE}/package.json`);
  } catch (error) {
    throw new GraphNodeError(`${GND_PACKAGE} is not installed (an optional dependency npm may skip): run npm ci again`, { code: "GND_NOT_INSTALLED", cause: error });
  }
  const binary = join(dirname(packageJson), "bin", "gnd");
  if (!existsSync(binary)) throw new GraphNodeError(`${binary} is missing from ${GND_PACKAGE}: run npm ci again`, { code: "GND_NOT_INSTALLED" });
  return binary;
}
