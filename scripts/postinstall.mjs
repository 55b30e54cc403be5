// npm skips optional packages whose `engines` exclude the Node that runs the install. On a machine
// whose global Node is 20, that drops Hardhat's native EDR binding even though every npm script
// runs on the project-local Node 22 from the `node` devDependency. This hook runs on that Node 22
// and adds the missing binding without touching package.json or the lockfile. On Node >= 22 the
// binding is already there and this does nothing.
//
// It builds the workspace's workbench package (packages/workbench: src/ to dist/), so that its command
// starts compiled, as it does when installed from its tarball.
//
// It also points `node_modules/.bin/graph` at the project's graph-cli. A second, older graph-cli is
// installed under an alias (`graph-cli-0.87`, the toolchain a real subgraph pins) and npm links the
// `graph` bin of either one, whichever it links last.
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
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

function addEdrBinding() {
  if (!existsSync(join(process.cwd(), "node_modules", "@nomicfoundation", "edr")) || edrLoads()) return;
  const pkg = `@nomicfoundation/edr-${platformSuffix()}@${edrVersion()}`;
  console.log(`postinstall: adding Hardhat's native binding ${pkg} (npm skipped it because the install ran on an older Node).`);
  // Installed apart, then moved in: an install into the project itself would rework the tree npm ci made
  // (it moved, removed and changed dozens of packages), and the tree would no longer be the lockfile's.
  const apart = mkdtempSync(join(tmpdir(), "edr-binding-"));
  try {
    execFileSync("npm", ["install", "--prefix", apart, "--no-save", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", pkg], { stdio: "inherit" });
    const name = pkg.slice(0, pkg.lastIndexOf("@"));
    const target = join(process.cwd(), "node_modules", name);
    rmSync(target, { recursive: true, force: true });
    cpSync(join(apart, "node_modules", name), target, { recursive: true });
  } finally {
    rmSync(apart, { recursive: true, force: true });
  }
  if (!edrLoads()) {
    console.error(`postinstall: ${pkg} was installed but @nomicfoundation/edr still does not load.`);
    process.exit(1);
  }
}

function linkGraphBin() {
  const target = join("..", "@graphprotocol", "graph-cli", "bin", "run.js");
  const link = join(process.cwd(), "node_modules", ".bin", "graph");
  if (!existsSync(join(process.cwd(), "node_modules", "@graphprotocol", "graph-cli", "bin", "run.js"))) return;
  let current = null;
  try {
    current = readlinkSync(link);
  } catch {
    // no link yet
  }
  if (current === target) return;
  rmSync(link, { force: true });
  symlinkSync(target, link);
}

function buildWorkbench() {
  const build = join(process.cwd(), "packages", "workbench", "scripts", "build.mjs");
  if (existsSync(build)) execFileSync(process.execPath, [build], { stdio: "inherit" });
}

addEdrBinding();
linkGraphBin();
buildWorkbench();
