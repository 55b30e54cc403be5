// npm skips optional packages whose `engines` exclude the Node that runs the install. On a machine
// whose global Node is 20, that drops Hardhat's native EDR binding even though every npm script
// runs on the project-local Node 22 from the `node` devDependency. This hook runs on that Node 22
// and adds the missing binding without touching package.json or the lockfile. On Node >= 22 the
// binding is already there and this does nothing.
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { readFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";

const require = createRequire(import.meta.url);

function edrLoads() {
  try {
    require("@nomicfoundation/edr");
    return true;
  } catch {
    return false;
  }
}

function isMusl() {
  try {
    return readFileSync("/usr/bin/ldd", "utf8").includes("musl");
  } catch {
    return false;
  }
}

function platformSuffix() {
  const { platform, arch } = process;
  if (platform === "linux") return `linux-${arch}-${isMusl() ? "musl" : "gnu"}`;
  if (platform === "win32") return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

function edrVersion() {
  // edr's `exports` hide ./package.json, so find the file next to the resolved entry point.
  let dir = dirname(require.resolve("@nomicfoundation/edr"));
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
}

if (!existsSync(join(process.cwd(), "node_modules", "@nomicfoundation", "edr"))) process.exit(0);
if (edrLoads()) process.exit(0);

const pkg = `@nomicfoundation/edr-${platformSuffix()}@${edrVersion()}`;
console.log(`postinstall: adding Hardhat's native binding ${pkg} (npm skipped it because the install ran on an older Node).`);
execFileSync("npm", ["install", "--no-save", "--no-package-lock", "--ignore-scripts", pkg], { stdio: "inherit" });
if (!edrLoads()) {
  console.error(`postinstall: ${pkg} was installed but @nomicfoundation/edr still does not load.`);
  process.exit(1);
}
