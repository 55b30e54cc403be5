// `subgraph-workbench dev`: the hot-reload loop. It starts the local node (or reuses a graph node on the
// admin port) against a chain, deploys a first version, then on every save builds and deploys a new
// version under the same name. The node switches the name once the new version has re-indexed, so the
// query URL and GraphiQL stay the same; a version that fails leaves the last good one serving.
import { errorText } from "../lib/errors.js";
import { createWarmGraphCli } from "../lib/warmGraphCli.js";
import { answersHttp, fetchHandlerProfile, startLocalNodeService, type LocalNodePorts, type StartedLocalNode } from "../node-services/index.js";
import { formatProfileTable } from "../lib/handlerProfileTable.js";
import { createSubgraphWatcher, type SubgraphWatcher } from "./subgraphWatcher.js";
import { deployVersion, DevVersionError } from "./deployVersion.js";
import { DevIndexingError, waitForVersion } from "./waitForVersion.js";
import { affectedTests, testPattern } from "./affectedTests.js";
import { locateTrapSource } from "./trapSource.js";
import { runMatchstick } from "../test-runner/index.js";

export interface DevLoopOptions {
  /** The subgraph folder to watch and build. */
  dir: string;
  name: string;
  ethereumRpc: string;
  /** Where a local node started here keeps its data (`<dataDir>/local-node`). */
  dataDir: string;
  postgres?: boolean;
  ports: LocalNodePorts;
  /** The networks.json entry to build for (default `localhost`, as graph-cli's `--network`). */
  network?: string;
  /**
   * Runs before the node starts: makes sure the chain is there (a project may start one, deploy its
   * contracts and record them in networks.json). `reset`: the node's data belongs to another chain.
   */
  prepare: (log: (line: string) => void) => Promise<PreparedChain>;
  debounceMs?: number;
  log: (line: string) => void;
}

export interface PreparedChain {
  reset: boolean;
  /** Stops what `prepare` started, after the node. */
  close?: () => Promise<void>;
}

export interface DevLoop {
  queryUrl: string;
  /** Stops watching, then what the loop started (the node, the chain). */
  close(): Promise<void>;
}

/** Files whose change makes `graph codegen`'s output stale (mappings in src/ do not). */
const needsCodegen = (file: string) => file === "subgraph.yaml" || file === "schema.graphql" || file.startsWith("abis/");

export async function createDevLoop(options: DevLoopOptions): Promise<DevLoop> {
  const { log } = options;
  const started: { chain?: PreparedChain; node?: StartedLocalNode; watcher?: SubgraphWatcher } = {};
  const network = options.network ?? "localhost";
  // graph-cli stays loaded between saves: a warm `graph build` takes a third of a fresh one's time.
  const graph = createWarmGraphCli({ projectDir: options.dir });
  let closed = false;
  const close = async () => {
    closed = true;
    started.watcher?.close();
    await graph.close();
    await started.node?.close();
    await started.chain?.close?.();
  };
  try {
    const chain = await options.prepare((line) => log(`[dev] ${line}`));
    started.chain = chain;

    const adminUrl = `http://127.0.0.1:${options.ports.admin}`;
    if (await answersHttp(adminUrl)) {
      log(`[dev] reusing the graph node that answers at ${adminUrl}`);
    } else {
      started.node = await startLocalNodeService(
        // The loop keeps the last good version serving until the new one has re-indexed: graph-node's
        // `synced` switching, whatever the environment says. Each save deploys: a host thread waits loaded.
        { ethereumRpc: options.ethereumRpc, dataDir: options.dataDir, postgres: options.postgres ?? false, reset: chain.reset, ports: options.ports, versionSwitching: "synced", keepSpareHostThread: true, chainCache: true },
        (line) => log(`[dev] ${line}`),
      );
    }

    const queryUrl = `http://127.0.0.1:${options.ports.query}/subgraphs/name/${options.name}`;
    const urls = { adminUrl, ipfsUrl: `http://127.0.0.1:${options.ports.ipfs}`, queryUrl, statusUrl: `http://127.0.0.1:${options.ports.status}/graphql` };
    let version = 0;
    let serving: { label: string; id: string } | null = null;
    let codegenStale = true;
    let pendingSave: number | null = null;
    let running = false;

    /** One save: build, deploy, wait until the name serves it on re-indexed data; report, never throw. */
    const cycle = async (files: string[], savedAt: number) => {
      const label = `v${++version}`;
      const codegen = codegenStale || files.some(needsCodegen);
      let deployedId: string | null = null;
      log(`[dev] ${files.length > 0 ? `${files.join(", ")} changed: ` : ""}building ${label}${codegen ? "" : " (codegen skipped: no schema, ABI or manifest change)"}`);
      try {
        codegenStale = codegen;
        let deployed;
        try {
          deployed = await deployVersion({ dir: options.dir, name: options.name, versionLabel: `dev-${version}`, codegen, network, graph: (args, o) => graph.run(args, o), ...urls });
        } finally {
          // graph build --network rewrites subgraph.yaml; that rewrite is no save.
          await started.watcher?.rebase(["subgraph.yaml"]);
        }
        codegenStale = false;
        deployedId = deployed.deploymentId;
        const deployedAt = Date.now();
        const head = await blockNumber(options.ethereumRpc);
        const superseded = async () => pendingSave !== null && (await started.watcher!.peekChanges()).length > 0;
        const result = await waitForVersion({ queryUrl, statusUrl: urls.statusUrl, deploymentId: deployed.deploymentId, head, superseded });
        if (result.kind === "superseded") {
          log(`[dev] ${label} (${deployed.deploymentId}) superseded by a newer save before it served`);
          return;
        }
        serving = { label, id: deployed.deploymentId };
        const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
        const t = deployed.timings;
        log(
          `[dev] ${label} serves ${deployed.deploymentId} at block ${result.block}: ${files.length > 0 ? "save to query on re-indexed data" : "ready to query in"} ${s(result.at - savedAt)}` +
            ` (codegen ${s(t.codegen)}, build ${s(t.build)}, deploy ${s(t.deploy)}, indexing and switch ${s(result.at - deployedAt)})`,
        );
        // Where the re-index spent its time, per handler (the local node's profile; none from graph-node).
        const profile = await fetchHandlerProfile(`http://127.0.0.1:${options.ports.query}`, deployed.deploymentId);
        if (profile && profile.length > 0) log(`[dev] ${label} handler profile:\n${indent(formatProfileTable(profile))}`);
        // After the version serves, so the tests do not slow the save-to-query path on two cores.
        if (files.length > 0) await runTouchedTests(files, label);
      } catch (error) {
        const keeps = serving ? `${serving.label} (${serving.id}) keeps serving` : "nothing serves yet";
        if (error instanceof DevVersionError) log(`[dev] ${label}: ${error.step} failed; ${keeps}:\n${indent(error.output)}`);
        else if (error instanceof DevIndexingError) {
          log(`[dev] ${label}: ${error.message}; ${keeps}`);
          if (deployedId) await reportTrapSource(label, deployedId);
        }
        else log(`[dev] ${label}: error: ${errorText(error)}; ${keeps}`);
      }
    };

    /** Where a failed version's mapping trapped, at its source line when the loop can place it; never throws. */
    const reportTrapSource = async (label: string, deploymentId: string) => {
      try {
        const trap = await locateTrapSource({ dir: options.dir, deploymentId, nodeUrl: `http://127.0.0.1:${options.ports.query}` });
        if (trap?.kind === "located") log(`[dev] ${label}: the mapping of ${trap.dataSource} trapped at ${trap.location}`);
        else if (trap) log(`[dev] ${label}: the mapping trapped in ${trap.location ?? "?"} (no source line: ${trap.reason})`);
      } catch (error) {
        log(`[dev] ${label}: where the mapping trapped could not be found: ${errorText(error)}`);
      }
    };

    /** The Matchstick tests of the changed files, on the project's runner; reports, never throws. */
    const runTouchedTests = async (files: string[], label: string) => {
      const tests = await affectedTests(options.dir, files);
      if (tests.length === 0) return;
      // The runner compiles the files as they are now: after a newer save, the next version runs them.
      if ((await started.watcher!.peekChanges()).length > 0) {
        log(`[dev] ${label} Matchstick tests skipped: newer files saved`);
        return;
      }
      let text = "";
      try {
        const summary = await runMatchstick({ root: options.dir, patterns: tests.map((t) => testPattern(options.dir, t)), coverage: false, recompile: false, write: (chunk) => (text += chunk), color: false, jobs: 1 });
        const verdict = summary.failed > 0 || summary.compileFailures.length > 0 || summary.aborted ? "FAILED" : "passed";
        log(`[dev] ${label} Matchstick tests ${verdict} (${tests.join(", ")}): ${summary.passed} passed, ${summary.failed} failed${summary.compileFailures.length ? `, ${summary.compileFailures.length} did not compile` : ""}`);
        if (verdict === "FAILED") log(indent(text.trim()));
        if ((await started.watcher!.peekChanges()).length > 0) log(`[dev] ${label} Matchstick tests: files were saved during the run, so it may have compiled newer ones`);
      } catch (error) {
        log(`[dev] ${label} Matchstick tests could not run: ${errorText(error)}`);
      }
    };

    /** Runs cycles one after another while saves keep coming; a save during a cycle queues the next. */
    const drain = async () => {
      if (running) return;
      running = true;
      try {
        while (pendingSave !== null && !closed) {
          const savedAt = pendingSave;
          pendingSave = null;
          const files = (await started.watcher?.takeChanges()) ?? [];
          if (files.length > 0) await cycle(files, savedAt);
        }
      } finally {
        running = false;
      }
    };

    started.watcher = await createSubgraphWatcher({
      dir: options.dir,
      ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
      onSave: (savedAt) => {
        pendingSave ??= savedAt;
        void drain();
      },
      onError: (error) => log(`[dev] watch error: ${errorText(error)}`),
    });

    running = true;
    await cycle([], Date.now());
    running = false;
    void drain();
    log("");
    log(`Queries (HTTP): ${queryUrl}`);
    log(`GraphiQL:       ${queryUrl} (open it in a browser)`);
    log(`Dashboard:      http://127.0.0.1:${options.ports.query}/ (the local node's: progress, errors, handler profile)`);
    log(`[dev] watching ${options.dir}: subgraph.yaml, schema.graphql, src/, abis/`);
    return { queryUrl, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function blockNumber(rpcUrl: string): Promise<number> {
  const response = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }) });
  const body = (await response.json()) as { result?: string };
  if (!body.result) throw new Error(`eth_blockNumber answered no result`);
  return Number(BigInt(body.result));
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}
