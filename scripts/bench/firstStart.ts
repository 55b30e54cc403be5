// `npm run bench:first-start [-- --rounds 3]`: the workbench's `node` command on a fresh install. The
// package is packed and installed into a project outside the workspace (as testing/outsideProject.test.ts
// does), then started there: the first start with nothing cached (no V8 code cache, no PGlite template),
// then again. Figures: time from the command's start to its "queries http" line, and the peak resident
// memory of its process tree, the PGlite template's one-off child included (Linux: reads /proc).
import { execFile, spawn } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fail, parseCli } from "subgraph-workbench/cli";
import { freePort } from "subgraph-workbench/lib/freePort";
import { sampleProcessTree } from "subgraph-workbench/lib/processTreeMemory";
import { projectRoot } from "../../hardhat/projectRoot.js";
import { installScratchProject } from "../../testing/_test/scratchInstall.js";

const { values } = parseCli({ rounds: { type: "string", default: "3" } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) fail(`--rounds must be a whole number >= 1, got ${values.rounds}`);

interface Start {
  upMs: number;
  peakMiB: number;
  /** The largest single process's own peak (VmHWM), and what it was. */
  largest: string;
}

async function startOnce(dir: string, env: NodeJS.ProcessEnv): Promise<Start> {
  const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
  const flags = ["--query-port", "--admin-port", "--ipfs-port", "--status-port"].flatMap((f, i) => [f, String(ports[i])]);
  const dataDir = await mkdtemp(join(tmpdir(), "first-start-data-"));
  const started = performance.now();
  // The installed bin through node, as npx ends up running it (npx's own start is not the workbench's).
  const child = spawn(process.execPath, [join(dir, "node_modules", "subgraph-workbench", "bin", "subgraph-workbench.js"), "node", "--data-dir", dataDir, ...flags], {
    cwd: dir,
    env: { ...process.env, ...env, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const sampler = sampleProcessTree(child.pid!, { intervalMs: 10 });
  let output = "";
  const up = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/queries http/.test(output)) resolve(performance.now() - started);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the node exited (${code}) before it was up:\n${output}`)));
  });
  // A moment more: what the node does right after it listens counts too.
  await new Promise((r) => setTimeout(r, 500));
  const { peakSumKiB, processes } = sampler.stop();
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGINT");
  await exited;
  await rm(dataDir, { recursive: true, force: true });
  const top = [...processes].sort((a, b) => b.peakKiB - a.peakKiB)[0];
  return { upMs: up, peakMiB: peakSumKiB / 1024, largest: top ? `${top.command} ${(top.peakKiB / 1024).toFixed(0)} MiB` : "?" };
}

const packDir = await mkdtemp(join(tmpdir(), "first-start-pack-"));
const dir = await mkdtemp(join(tmpdir(), "first-start-project-"));
try {
  const packed = await promisify(execFile)("npm", ["pack", "--pack-destination", packDir, "--json", "--loglevel=error"], { cwd: join(projectRoot, "packages", "workbench"), maxBuffer: 64 * 1024 * 1024 });
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  await cp(join(projectRoot, "testing", "_test", "outside-subgraph"), dir, { recursive: true });
  const installing = performance.now();
  await installScratchProject({
    workspace: projectRoot,
    projectDir: dir,
    fromWorkspace: ["@graphprotocol/graph-cli", "@graphprotocol/graph-ts", "matchstick-as"],
    tarballs: { "subgraph-workbench": { path: join(packDir, filename), workspaceFolder: "packages/workbench" } },
  });
  console.log(`installed the packed workbench in a fresh project in ${((performance.now() - installing) / 1000).toFixed(1)} s`);
  // Node's code cache in a folder of this run: the first start finds it empty, as on a fresh machine.
  const env = { NODE_COMPILE_CACHE: join(dir, ".node-compile-cache") };
  for (let round = 1; round <= rounds; round++) {
    const start = await startOnce(dir, env);
    const what = round === 1 ? "first start (nothing cached)" : `start ${round}`;
    console.log(`${what}: up in ${(start.upMs / 1000).toFixed(2)} s, peak ${start.peakMiB.toFixed(0)} MiB (largest process: ${start.largest})`);
  }
} catch (error) {
  fail(error);
} finally {
  await rm(dir, { recursive: true, force: true });
  await rm(packDir, { recursive: true, force: true });
}
