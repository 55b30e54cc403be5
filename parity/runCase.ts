// One parity case, end to end: a fresh chain, the scenario, one graph-cli build, both engines synced at
// the head, then status, every entity (at the head and at past blocks) and the query corpus compared.
// With an `afterwards` step (a reorg, more blocks), both engines follow the chain and are compared again.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startHardhatNode } from "../hardhat/chain/index.js";
import { buildSubgraph } from "../lib/subgraphBuild.js";
import { parseSubgraphSchema } from "../subgraph-schema/index.js";
import { acceptance, type AcceptedDifference } from "./accepted.js";
import { firstDifference } from "./diff.js";
import { startEngines, type Engine } from "./engines.js";
import { comparableTypes } from "./entitySelection.js";
import { postGraphQL } from "./graphql.js";
import { generateCorpus } from "./queryCorpus.js";
import { readAllEntities } from "./readEntities.js";
import { waitUntilSettled, readStatus, statusSubjects } from "./status.js";
import type { CaseReport, Difference, ParityCase, ScenarioContext } from "./types.js";

export interface RunCaseOptions {
  accepted: AcceptedDifference[];
  log?: (line: string) => void;
}

export async function runParityCase(parityCase: ParityCase, options: RunCaseOptions): Promise<CaseReport> {
  const started = Date.now();
  const log = (line: string) => options.log?.(`[${parityCase.name}] ${line}`);
  const network = parityCase.network ?? "localhost";
  const chain = await startHardhatNode();
  const differences: Difference[] = [];
  let comparisons = 0;
  try {
    const context: ScenarioContext = { chainUrl: chain.url };
    const scenario = await parityCase.scenario(context);
    log(`scenario done: ${scenario.address} from block ${scenario.startBlock}`);
    const built = await buildSubgraph({ projectDir: parityCase.projectDir, address: scenario.address, startBlock: scenario.startBlock, network, ...(scenario.dataSource ? { dataSource: scenario.dataSource } : {}) });
    const schema = parseSubgraphSchema(await readFile(join(built.buildDir, "schema.graphql"), "utf8"));
    const engines = await startEngines(built, { chainUrl: chain.url, network, name: `parity/${parityCase.name}`, log });
    try {
      const compareAll = async (round: string) => {
        const head = await waitUntilSettled([engines.local, engines.graphNode], chain.url);
        log(`${round}: both engines settled at block ${head}`);
        const add = (subject: string, local: unknown, graphNode: unknown) => {
          comparisons++;
          const diff = firstDifference(local, graphNode);
          if (diff) differences.push({ case: parityCase.name, subject: round === "first" ? subject : `${round}:${subject}`, local, graphNode, diff });
        };
        for (const [subject, local, graphNode] of statusSubjects(await readStatus(engines.local), await readStatus(engines.graphNode))) add(subject, local, graphNode);
        const samples = new Map<string, Record<string, unknown>[]>();
        for (const type of comparableTypes(schema)) {
          for (const block of [undefined, ...(scenario.pastBlocks ?? [])]) {
            const local = await readAllEntities(engines.local.queryUrl, type, block);
            const graphNode = await readAllEntities(engines.graphNode.queryUrl, type, block);
            add(`entities:${type.name}@${block ?? "head"}`, local, graphNode);
            if (block === undefined && "rows" in graphNode) samples.set(type.name, graphNode.rows);
          }
        }
        for (const q of [...generateCorpus(schema, samples, scenario.pastBlocks?.[0]), ...(parityCase.queries ?? [])]) {
          const [local, graphNode] = await Promise.all([answerOf(engines.local, q.query, q.variables), answerOf(engines.graphNode, q.query, q.variables)]);
          add(`query:${q.id}`, local, graphNode);
        }
      };
      await compareAll("first");
      if (parityCase.afterwards) {
        await parityCase.afterwards(context);
        await compareAll("afterwards");
      }
    } finally {
      await engines.close();
    }
  } finally {
    await chain.stop();
  }
  const accepted: CaseReport["accepted"] = [];
  const open: Difference[] = [];
  for (const d of differences) {
    const reason = acceptance(d, options.accepted);
    if (reason) accepted.push({ ...d, reason: reason.reason });
    else open.push(d);
  }
  return { case: parityCase.name, comparisons, differences: open, accepted, seconds: (Date.now() - started) / 1000 };
}

/** A response as compared: data, and error messages (graph-node's locations are not compared). */
async function answerOf(engine: Engine, query: string, variables?: Record<string, unknown>): Promise<unknown> {
  const answer = await postGraphQL(engine.queryUrl, query, variables);
  return { data: stripDeployment(answer.data ?? null), errors: answer.errors?.map((e) => e.message) ?? [] };
}

/** `_meta.deployment` names the build differently on each engine (a CID here, a manifest path in gnd dev). */
function stripDeployment(data: unknown): unknown {
  if (!data || typeof data !== "object") return data;
  const meta = (data as { _meta?: Record<string, unknown> })._meta;
  if (!meta) return data;
  const { deployment: _deployment, ...rest } = meta;
  return { ...(data as object), _meta: rest };
}

