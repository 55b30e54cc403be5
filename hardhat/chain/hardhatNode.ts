import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { freePort } from "subgraph-workbench/lib/freePort";
import { cutLifeline, spawnWithLifeline } from "subgraph-workbench/lib/lifeline";
import { projectRoot } from "../projectRoot.js";

export interface HardhatNode {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface StartHardhatNodeOptions {
  /** Port on 127.0.0.1; a free one is chosen when omitted. */
  port?: number;
  /** Milliseconds to wait for the node to answer. */
  timeoutMs?: number;
  /** Pass the node's own output through (for `npm start`). */
  inheritOutput?: boolean;
}

/** Asks a JSON-RPC endpoint for its block number; resolves false when nothing answers. */
export async function rpcAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const body = (await res.json()) as { result?: unknown };
    return typeof body.result === "string";
  } catch {
    return false;
  }
}

/** Starts `hardhat node` on loopback as a child process and waits until it answers JSON-RPC. */
export async function startHardhatNode(options: StartHardhatNodeOptions = {}): Promise<HardhatNode> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const bin = join(projectRoot, "node_modules", ".bin", "hardhat");
  // Under a lifeline: the chain ends with this process, however it ends (a killed test run left it
  // running); SIGTERM, then SIGKILL after 3 s.
  const child = spawnWithLifeline(bin, ["node", "--hostname", "127.0.0.1", "--port", String(port)], {
    lifeline: { signal: "TERM", graceSeconds: 3 },
    cwd: projectRoot,
    stdio: options.inheritOutput ? "inherit" : ["ignore", "pipe", "pipe"],
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", DO_NOT_TRACK: "1" },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    if (output.length < 20_000) output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    if (output.length < 20_000) output += chunk.toString();
  });
  let exited = false;
  const exitPromise = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));

  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (!(await rpcAnswers(url))) {
    if (exited) throw new Error(`hardhat node exited before answering on ${url}:\n${output}`);
    if (Date.now() > deadline) {
      cutLifeline(child);
      throw new Error(`hardhat node did not answer on ${url} in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    process: child,
    async stop() {
      if (exited) return;
      cutLifeline(child);
      await exitPromise;
    },
  };
}
