// graph-node's integration suite on one engine: each case deployed (its sources first), waited for until
// synced or failed, then its restated test run against the engine's APIs. One verdict per case, with the
// first failing assertion.
import { join } from "node:path";
import { AssertionFailed } from "./expect.js";
import { chainHeadHash, postGraphql, waitForHead, waitReady } from "./status.js";
import type { EngineLabel, SuiteEngine } from "./engines.js";
import type { CaseContext, IntegrationCase } from "./types.js";

export type Verdict = "pass" | "fail" | "cannot run";

export interface CaseResult {
  case: string;
  engine: EngineLabel;
  verdict: Verdict;
  /** The first failing assertion, or why the case did not reach its test (deploy, sync). */
  failure?: string;
  /** For "cannot run": why the engine cannot pass it whatever it indexes. */
  reason?: string;
  deployment?: string;
  seconds: number;
}

export interface RunCasesOptions {
  engine: SuiteEngine;
  cases: IntegrationCase[];
  dirOf: (name: string) => string;
  chainUrl: string;
  readyTimeoutMs: number;
  log: (line: string) => void;
}

export async function runIntegrationCases(options: RunCasesOptions): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of options.cases) {
    const started = Date.now();
    const result = await runOne(c, options);
    const done = { ...result, seconds: (Date.now() - started) / 1000 };
    options.log(`${options.engine.label}: ${c.name}: ${done.verdict}${done.failure ? ` - ${done.failure.split("\n")[0]}` : ""} (${done.seconds.toFixed(1)} s)`);
    results.push(done);
  }
  return results;
}

async function runOne(c: IntegrationCase, options: RunCasesOptions): Promise<Omit<CaseResult, "seconds">> {
  const label = options.engine.label;
  const base = { case: c.name, engine: label };
  const limit = c.engineLimits?.[label];
  let deployed;
  try {
    deployed = await options.engine.deployCase(c, options.dirOf);
  } catch (error) {
    return { ...base, verdict: "fail", failure: `Deploy failed: ${message(error)}` };
  }
  try {
    let subgraph;
    try {
      subgraph = await waitReady(deployed.statusUrl, deployed.name, options.readyTimeoutMs);
      // graph-node's `synced` comes within 10 blocks of the head, and the harness's queries assume every
      // block indexed (overloaded-functions once read `calls: []` on graph-node): also wait for the head.
      await waitForHead(deployed.statusUrl, subgraph.deployment, await chainHeadHash(options.chainUrl), options.readyTimeoutMs);
    } catch (error) {
      return { ...base, verdict: "fail", failure: message(error) };
    }
    const ctx: CaseContext = {
      subgraph,
      query: (text) => postGraphql(deployed.queryUrl, text),
      status: (text, variables) => postGraphql(deployed.statusUrl, text, variables),
    };
    try {
      await c.test(ctx);
      return { ...base, verdict: "pass", deployment: subgraph.deployment };
    } catch (error) {
      const failure = error instanceof AssertionFailed ? error.message : `test error: ${message(error)}`;
      return limit ? { ...base, verdict: "cannot run", reason: limit, failure, deployment: subgraph.deployment } : { ...base, verdict: "fail", failure, deployment: subgraph.deployment };
    }
  } finally {
    await deployed.close();
  }
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 3000);
}

export const casesFolder = (testsDir: string) => join(testsDir, "integration-tests");
