// The whole run: graph-node's tests/ copied from the checkout, the toolchain installed, a fresh Hardhat
// chain with the test contracts deployed and called as graph-node's harness does, then the cases on
// each engine asked for.
import { join } from "node:path";
import { startHardhatNode } from "../../hardhat/chain/index.js";
import { copyGraphNodeTests } from "./checkout.js";
import { deploySuiteContracts } from "./contracts.js";
import { startGraphNodeSuiteEngine, startLocalSuiteEngine, type EngineLabel, type SuiteEngine } from "./engines.js";
import { integrationCases } from "./integration/index.js";
import { casesFolder, runIntegrationCases, type CaseResult } from "./runIntegration.js";
import { prepareToolchain } from "./toolchain.js";
import { makeWorkTree } from "./workTree.js";
import { runnerCases } from "./runner/cases.js";
import { runRunnerCases } from "./runner/runRunner.js";
import { startThrowawayPostgres } from "subgraph-workbench/lib/embedded-postgres";

export type EngineChoice = EngineLabel | "both";
export type SuiteChoice = "integration" | "runner" | "both";

export interface SuiteOptions {
  source: string;
  rev?: string;
  engines: EngineChoice;
  /** Only the case of this name (an integration case's folder, or a runner test's Rust name). */
  caseName?: string;
  /** Which of graph-node's two suites (default both). */
  suites?: SuiteChoice;
  log: (line: string) => void;
}

export interface SuiteReport {
  commit: string | null;
  results: CaseResult[];
  /** Per engine, the seconds its cases took (deploys, syncs and tests). */
  engineSeconds: Partial<Record<EngineLabel, number>>;
  notes: string[];
  seconds: number;
}

export function suiteCaseNames(): string[] {
  return [...integrationCases().map((c) => c.name), ...runnerCases().map((c) => c.name)];
}

export async function runGraphNodeSuite(options: SuiteOptions): Promise<SuiteReport> {
  const started = Date.now();
  const { log } = options;
  const suites = options.suites ?? "both";
  const wanted = (name: string) => !options.caseName || name === options.caseName;
  const cases = suites === "runner" ? [] : integrationCases().filter((c) => wanted(c.name));
  const runners = suites === "integration" ? [] : runnerCases().filter((c) => wanted(c.name));
  const checkout = await copyGraphNodeTests(options.source, options.rev);
  log(`graph-node tests copied to ${checkout.root} (commit ${checkout.commit ?? "unknown"})`);
  const notes: string[] = [];
  try {
    const tool = await prepareToolchain(checkout.root, log);
    const chain = await startHardhatNode();
    try {
      const { contracts, moved } = await deploySuiteContracts(chain.url, checkout.testsDir, log);
      notes.push(...moved);
      const labels: EngineLabel[] = options.engines === "both" ? ["graph-node", "local"] : [options.engines];
      const results: CaseResult[] = [];
      const engineSeconds: SuiteReport["engineSeconds"] = {};
      for (const label of labels) {
        const engineStarted = Date.now();
        if (cases.length) {
          const dirOf = await makeWorkTree(casesFolder(checkout.testsDir), join(checkout.root, `work-${label}`), tool);
          const context = { chainUrl: chain.url, tool, contracts, readyTimeoutMs: 300_000, log };
          const engine: SuiteEngine = label === "local" ? await startLocalSuiteEngine(context) : await startGraphNodeSuiteEngine(context);
          try {
            results.push(...(await runIntegrationCases({ engine, cases, dirOf, chainUrl: chain.url, readyTimeoutMs: 300_000, log })));
          } finally {
            await engine.close();
          }
        }
        if (runners.length) {
          const postgres = label === "graph-node" ? await startThrowawayPostgres() : undefined;
          try {
            const workDir = join(checkout.root, `runner-${label}`);
            results.push(...(await runRunnerCases({ engine: label, cases: runners, runnerTestsDir: join(checkout.testsDir, "runner-tests"), workDir, tool, readyTimeoutMs: 120_000, log, ...(postgres ? { postgres } : {}) })));
          } finally {
            await postgres?.stop();
          }
        }
        engineSeconds[label] = (Date.now() - engineStarted) / 1000;
      }
      return { commit: checkout.commit, results, engineSeconds, notes, seconds: (Date.now() - started) / 1000 };
    } finally {
      await chain.stop();
    }
  } finally {
    if (!process.env.GRAPH_NODE_SUITE_KEEP) await checkout.remove();
  }
}
