// The graph-cli commands graph-node's harness runs (tests/src/subgraph.rs), through gnd, which carries
// them: codegen of the patched manifest, then `create` and `deploy` against an admin API, or a plain
// `build` for gnd dev, which indexes build folders. Every command is given the suite's IPFS: gnd's
// default is a public endpoint, and nothing here talks to anything but 127.0.0.1.
import { join } from "node:path";
import { run } from "./checkout.js";
import { PATCHED_MANIFEST } from "./manifest.js";
import type { Toolchain } from "./toolchain.js";

const IPFS_HASH = /Qm[1-9A-HJ-NP-Za-km-z]{44}/g;

export function gndCodegen(tool: Toolchain, caseDir: string, ipfsUrl: string): Promise<string> {
  return run(tool.gnd, ["codegen", PATCHED_MANIFEST, `--ipfs=${ipfsUrl}`], { cwd: caseDir, env: tool.env });
}

/** `graph create` then `graph deploy --version-label v0.0.1` (which builds); answers the deployment id it printed. */
export async function gndCreateAndDeploy(tool: Toolchain, caseDir: string, name: string, adminUrl: string, ipfsUrl: string): Promise<string | null> {
  await run(tool.gnd, ["create", "--node", adminUrl, name], { cwd: caseDir, env: tool.env });
  const out = await run(tool.gnd, ["deploy", "--node", adminUrl, "--version-label", "v0.0.1", "--ipfs", ipfsUrl, name, PATCHED_MANIFEST], { cwd: caseDir, env: tool.env });
  return [...out.matchAll(IPFS_HASH)].at(-1)?.[0] ?? null;
}

/** `graph build` into `build/`; with `ipfsUrl` it also uploads the build and answers its hash. */
export async function gndBuild(tool: Toolchain, caseDir: string, ipfsUrl?: string): Promise<{ buildManifest: string; hash: string | null }> {
  const out = await run(tool.gnd, ["build", PATCHED_MANIFEST, ...(ipfsUrl ? ["--ipfs", ipfsUrl] : [])], { cwd: caseDir, env: tool.env });
  return { buildManifest: join(caseDir, "build", "subgraph.yaml"), hash: ipfsUrl ? ([...out.matchAll(IPFS_HASH)].at(-1)?.[0] ?? null) : null };
}
