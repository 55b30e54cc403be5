// One parity case, end to end: a fresh chain, the scenario, one graph-cli build, both engines synced at
// the head, then status, every entity (at the head and at past blocks) and the query corpus compared.
// With an `afterwards` step (a reorg, more blocks), both engines follow the chain and are compared again.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildSubgraph, type BuiltSubgraph } from "../lib/subgraphBuild.js";
import { parseSubgraphSchema, type SubgraphSchema } from "../subgraph-schema/index.js";
import { acceptance, type AcceptedDifference } from "./accepted.js";
import { firstDifference, withDeploymentsUnnamed } from "./diff.js";
import { openLocalEngine, startEngines, type Engine } from "./engines.js";
import { deployGraft } from "./graft.js";
import { deployComposed } from "./composition.js";
import { comparableTypes } from "./entitySelection.js";
import { postGraphQL } from "./graphql.js";
import { generateCorpus } from "./queryCorpus.js";
import { readAllEntities } from "./readEntities.js";
import { waitUntilSettled, readStatus, statusSubjects } from "./status.js";
import { createProgressBoard } from "../lib/catchUpProgress.js";
import { createStepProgress } from "../lib/stepProgress.js";
import { poiSubjects } from "./proofOfIndexing.js";
import type { CaseReport, CorpusQuery, Difference, ParityCase, ScenarioContext } from "./types.js";

/** A chain for one case: its JSON-RPC URL, and how to end it when the case is done. */
export interface CaseChain {
  url: string;
  stop(): Promise<void>;
}

export interface RunCaseOptions {
  accepted: AcceptedDifference[];
  /** The chain the case runs on: a fresh one per case where the caller can start one (Hardhat's node, say). */
  startChain: () => Promise<CaseChain>;
  log?: (line: string) => void;
  /** Show the long waits (both engines' catch-up, the query corpus) as they go: bars on a terminal, else lines. */
  progress?: boolean;
}

export async function runParityCase(parityCase: ParityCase, options: RunCaseOptions): Promise<CaseReport> {
  const started = Date.now();
  const log = (line: string) => options.log?.(`[${parityCase.name}] ${line}`);
  const network = parityCase.network ?? "localhost";
  const chain = await options.startChain();
  const differences: Difference[] = [];
  let comparisons = 0;
  try {
    const engineOptions = { chainUrl: chain.url, network, name: `parity/${parityCase.name}`, log, ...(parityCase.graphNodeEnv ? { graphNodeEnv: parityCase.graphNodeEnv } : {}), ...(parityCase.builtManifest ? { verbatimUpload: true } : {}) };
    // The local node runs first, so that a scenario can put files into its IPFS before the chain names them.
    const localNode = await openLocalEngine(engineOptions);
    const context: ScenarioContext = { chainUrl: chain.url, addFile: (content) => localNode.addFile(content) };
    let scenario: Awaited<ReturnType<ParityCase["scenario"]>>;
    let built: Awaited<ReturnType<typeof buildSubgraph>>;
    let base: Awaited<ReturnType<typeof buildSubgraph>> | null;
    let sources: BuiltSubgraph[] | null;
    let schema: SubgraphSchema;
    try {
      scenario = await parityCase.scenario(context);
      log(`scenario done: ${scenario.address} from block ${scenario.startBlock}`);
      const buildFor = (projectDir: string) => buildSubgraph({ projectDir, address: scenario.address, startBlock: scenario.startBlock, network, ...(scenario.dataSource ? { dataSource: scenario.dataSource } : {}) });
      // A composition case builds its sources here, its own subgraph once they are deployed (codegen reads their schemas).
      sources = parityCase.composeOnto ? await Promise.all(parityCase.composeOnto.sourceProjectDirs.map(buildFor)) : null;
      built = sources ? sources[0]! : await buildFor(parityCase.projectDir);
      if (parityCase.builtManifest) await rewriteBuiltManifest(built, parityCase.builtManifest);
      base = parityCase.graftOnto ? await buildFor(parityCase.graftOnto.baseProjectDir) : null;
      schema = parseSubgraphSchema(await readFile(join(sources ? parityCase.projectDir : built.buildDir, "schema.graphql"), "utf8"));
    } catch (error) {
      await localNode.close();
      throw error;
    }
    // A grafting case runs its base subgraph under `<name>-base` first, then grafts the case's subgraph onto it.
    const engines = await startEngines(base ?? built, base ? { ...engineOptions, name: `${engineOptions.name}-base` } : sources ? { ...engineOptions, name: `${engineOptions.name}-source-0` } : engineOptions, localNode);
    try {
      if (base && scenario.graftBlock === undefined) throw new Error(`${parityCase.name}: a grafting case's scenario must name its graftBlock`);
      const subjects = sources
        ? await deployComposed(engines, { projectDir: parityCase.projectDir, moreSources: sources.slice(1), name: engineOptions.name, network, startBlock: scenario.startBlock, ipfsUrl: localNode.ipfsUrl })
        : base
          ? await deployGraft(engines, built, engineOptions.name, scenario.graftBlock ?? 0, chain.url)
          : engines;
      const compareAll = async (round: string) => {
        await parityCase.settle?.({ ...context, local: subjects.local, graphNode: subjects.graphNode });
        const compared = await compareEngines({ caseName: parityCase.name, round, local: subjects.local, graphNode: subjects.graphNode, chainUrl: chain.url, schema, pastBlocks: scenario.pastBlocks ?? [], queries: parityCase.queries ?? [], log, startBlock: scenario.startBlock, ...(options.progress ? { progress: true } : {}) });
        comparisons += compared.comparisons;
        differences.push(...compared.differences);
      };
      await compareAll("first");
      if (parityCase.adminSteps) {
        const deployOnBoth = async (another: BuiltSubgraph, name: string) => void (await engines.deployAnother(another, name, async () => undefined));
        for (const [subject, local, graphNode] of await parityCase.adminSteps({ ...context, local: subjects.local, graphNode: subjects.graphNode, deployOnBoth })) {
          comparisons++;
          const difference = compareAnswers(parityCase.name, `admin:${subject}`, local, graphNode);
          if (difference) differences.push(difference);
        }
      }
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
  return { case: parityCase.name, comparisons, ...sortDifferences(differences, options.accepted), seconds: (Date.now() - started) / 1000 };
}

export interface CompareEnginesParameters {
  caseName: string;
  /** `first`, or the name of a later round (its subjects are prefixed with it). */
  round: string;
  local: Engine;
  graphNode: Engine;
  chainUrl: string;
  schema: SubgraphSchema;
  /** Blocks at which entities are also compared. */
  pastBlocks: number[];
  /** Queries beyond the generated corpus. */
  queries: CorpusQuery[];
  log?: (line: string) => void;
  /** Bars (or lines) for the wait until both engines settle and for the query corpus. */
  progress?: boolean;
  /** Where the catch-up bars count from. */
  startBlock?: number;
}

/**
 * One round of comparisons once both engines have settled at the chain's head: the status field by
 * field, every entity of every type (at the head and at the past blocks), then the query corpus.
 */
export async function compareEngines(params: CompareEnginesParameters): Promise<{ comparisons: number; differences: Difference[] }> {
  const { local: localEngine, graphNode: graphNodeEngine, round } = params;
  const plainLine = (line: string) => params.log?.(`${round}: ${line}`);
  const board = params.progress ? createProgressBoard({ plainLine }) : null;
  const head = await waitUntilSettled([localEngine, graphNodeEngine], params.chainUrl, { ...(board ? { progress: board } : {}), startBlock: params.startBlock ?? 0 }).finally(() => board?.stop());
  params.log?.(`${round}: both engines settled at block ${head}`);
  const differences: Difference[] = [];
  let comparisons = 0;
  const add = (subject: string, local: unknown, graphNode: unknown) => {
    comparisons++;
    const difference = compareAnswers(params.caseName, round === "first" ? subject : `${round}:${subject}`, local, graphNode);
    if (difference) differences.push(difference);
  };
  for (const [subject, local, graphNode] of statusSubjects(await readStatus(localEngine), await readStatus(graphNodeEngine))) add(subject, local, graphNode);
  const poiBlocks = [...new Set([...params.pastBlocks, head])];
  for (const [subject, local, graphNode] of await poiSubjects(localEngine, graphNodeEngine, params.chainUrl, poiBlocks)) add(subject, local, graphNode);
  const samples = new Map<string, Record<string, unknown>[]>();
  for (const type of comparableTypes(params.schema)) {
    for (const block of [undefined, ...params.pastBlocks]) {
      const local = await readAllEntities(localEngine.queryUrl, type, block);
      const graphNode = await readAllEntities(graphNodeEngine.queryUrl, type, block);
      add(`entities:${type.name}@${block ?? "head"}`, local, graphNode);
      if (block === undefined && "rows" in graphNode) samples.set(type.name, graphNode.rows);
    }
  }
  const corpus = [...generateCorpus(params.schema, samples, params.pastBlocks[0]), ...params.queries];
  const asked = params.progress ? createStepProgress({ label: "queries asked of both engines", total: corpus.length, unit: "queries", stream: process.stdout, plainLine }) : null;
  for (const q of corpus) {
    const [local, graphNode] = await Promise.all([answerOf(localEngine, q.query, q.variables), answerOf(graphNodeEngine, q.query, q.variables)]);
    add(`query:${q.id}`, local, graphNode);
    asked?.step(q.id);
  }
  asked?.stop();
  return { comparisons, differences };
}

/** Two engines' answers on one subject, with each engine's deployment id left out; the difference, if any. */
function compareAnswers(caseName: string, subject: string, localAnswer: unknown, graphNodeAnswer: unknown): Difference | null {
  const local = withDeploymentsUnnamed(localAnswer);
  const graphNode = withDeploymentsUnnamed(graphNodeAnswer);
  const diff = firstDifference(local, graphNode);
  return diff ? { case: caseName, subject, local, graphNode, diff } : null;
}

/** Splits differences into those listed in accepted-differences.json (with their reasons) and open ones. */
export function sortDifferences(differences: Difference[], accepted: AcceptedDifference[]): Pick<CaseReport, "differences" | "accepted"> {
  const out: Pick<CaseReport, "differences" | "accepted"> = { differences: [], accepted: [] };
  for (const d of differences) {
    const reason = acceptance(d, accepted);
    if (reason) out.accepted.push({ ...d, reason: reason.reason });
    else out.differences.push(d);
  }
  return out;
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

/** The case's own text for the built manifest, which both engines then read as it is. */
async function rewriteBuiltManifest(built: BuiltSubgraph, rewrite: (text: string) => string): Promise<void> {
  const path = join(built.buildDir, "subgraph.yaml");
  await writeFile(path, rewrite(await readFile(path, "utf8")));
}
