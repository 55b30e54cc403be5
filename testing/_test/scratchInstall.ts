// Installs packages into a project outside the workspace with npm, with no network: npm ci on a lockfile
// written here, in which every package is "resolved" to its folder in the workspace's node_modules (what
// the workspace's own npm ci installed) and copied, not linked (--install-links: npm packs each folder and
// unpacks it in the project, as it would a registry tarball). Only what the project's dependencies reach
// is written, so the project gets what a real install of them would give, and nothing the workspace has
// besides.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  optional?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

export interface ScratchInstallOptions {
  /** The workspace whose package-lock.json and node_modules (as its npm ci made them) supply the packages. */
  workspace: string;
  /** The project folder: its package.json is written here with these dev dependencies. */
  projectDir: string;
  /** Registry packages by name, at the version the workspace has installed. */
  fromWorkspace: string[];
  /** Packages from tarballs (`npm pack`): name -> tarball path; their dependencies come from the workspace too. */
  tarballs: Record<string, { path: string; workspaceFolder: string }>;
  packageJson?: Record<string, unknown>;
}

/** A dependency's lockfile key as Node resolves it from the entry at `from`: the nearest node_modules up. */
function resolveKey(packages: Record<string, LockEntry>, from: string, name: string): string | null {
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut < 0 ? "" : base.slice(0, cut);
  }
}

export async function installScratchProject(options: ScratchInstallOptions): Promise<void> {
  const lock = JSON.parse(readFileSync(join(options.workspace, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const all = lock.packages;
  const devDependencies: Record<string, string> = {};
  for (const name of options.fromWorkspace) {
    const version = all[`node_modules/${name}`]?.version;
    if (!version) throw new Error(`the workspace has no ${name} installed`);
    devDependencies[name] = version;
  }
  for (const [name, tarball] of Object.entries(options.tarballs)) devDependencies[name] = `file:${tarball.path}`;

  // Each written entry's key in the scratch project, and the key it was read from in the workspace: a
  // tarball package's own nested dependencies sit in its workspace folder (packages/x/node_modules/y) and
  // go under its folder in the project (node_modules/x/node_modules/y), as npm would nest them.
  const written: Record<string, LockEntry> = {};
  const sourceOf = new Map<string, string>();
  const queue: string[] = [];
  const take = (key: string, entry: LockEntry, source: string) => {
    if (written[key]) return;
    written[key] = entry;
    sourceOf.set(key, source);
    queue.push(key);
  };
  const folders = Object.entries(options.tarballs).map(([name, t]) => ({ from: `${t.workspaceFolder}/node_modules/`, to: `node_modules/${name}/node_modules/` }));
  const placeOf = (workspaceKey: string): string => {
    const folder = folders.find((f) => workspaceKey.startsWith(f.from));
    return folder ? folder.to + workspaceKey.slice(folder.from.length) : workspaceKey;
  };
  for (const name of options.fromWorkspace) take(`node_modules/${name}`, all[`node_modules/${name}`]!, `node_modules/${name}`);
  for (const [name, tarball] of Object.entries(options.tarballs)) {
    const source = all[tarball.workspaceFolder];
    if (!source) throw new Error(`the workspace's lockfile has no ${tarball.workspaceFolder}`);
    const { devDependencies: _, ...runtime } = source;
    take(`node_modules/${name}`, { ...runtime, resolved: `file:${tarball.path}` }, tarball.workspaceFolder);
  }
  while (queue.length > 0) {
    const key = queue.shift()!;
    const entry = written[key]!;
    const from = sourceOf.get(key)!;
    const optionalNames = new Set([...Object.keys(entry.optionalDependencies ?? {}), ...Object.entries(entry.peerDependenciesMeta ?? {}).filter(([, m]) => m.optional).map(([n]) => n)]);
    for (const name of new Set([...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...Object.keys(entry.peerDependencies ?? {})])) {
      const found = resolveKey(all, from, name);
      if (!found) {
        if (optionalNames.has(name)) continue;
        throw new Error(`${key} depends on ${name}, which the workspace's lockfile does not have`);
      }
      const place = placeOf(found);
      if (written[place]) continue;
      const target = all[found]!;
      if (target.link) throw new Error(`${found} is a link in the workspace; install it from a tarball instead`);
      const folder = join(options.workspace, found);
      if (!existsSync(join(folder, "package.json"))) {
        // Optional packages for other platforms: in the lockfile, not in node_modules. npm ci needs their
        // entries, and skips them for their os and cpu, as the workspace's npm ci did.
        if (target.optional || optionalNames.has(name)) {
          take(place, { ...target, resolved: `https://registry.npmjs.org/${name}/-/${name.split("/").pop()}-${target.version}.tgz` }, found);
          continue;
        }
        throw new Error(`the workspace's node_modules lacks ${found}: run npm ci in the workspace`);
      }
      const { integrity: _i, resolved: _r, ...rest } = target;
      take(place, { ...rest, resolved: `file:${folder}` }, found);
    }
  }
  const name = "scratch-subgraph";
  const packageJson = { name, version: "0.1.0", private: true, ...options.packageJson, devDependencies };
  await writeFile(join(options.projectDir, "package.json"), `${JSON.stringify(packageJson, null, 2)}\n`);
  const lockfile = { name, version: "0.1.0", lockfileVersion: 3, requires: true, packages: { "": { name, version: "0.1.0", devDependencies }, ...written } };
  await writeFile(join(options.projectDir, "package-lock.json"), `${JSON.stringify(lockfile, null, 2)}\n`);
  await promisify(execFile)("npm", ["ci", "--offline", "--install-links", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: options.projectDir,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 600_000,
  });
}
