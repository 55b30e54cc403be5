// What every run of a real subgraph starts with: its source copied from the user's checkout into a
// scratch folder (and checked to be that repository), a fresh Hardhat chain with the protocol and the
// scenario (the default one, or the scaled one), the network config written and the manifest rendered,
// and one graph-cli build. The engines then index that one chain and build.
import { access, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { startHardhatNode, type HardhatNode } from "../../hardhat/chain/index.js";
import { projectRoot } from "../../hardhat/projectRoot.js";
import { buildSubgraph, type BuiltSubgraph } from "subgraph-workbench/lib/subgraphBuild";
import { parseSubgraphSchema, type SubgraphSchema } from "subgraph-workbench/subgraph-schema";
import { CheckoutError, copyCheckout, type Checkout } from "../sourceCheckout.js";
import type { RealScenario, RealSubgraph, ScenarioScale } from "./types.js";

export interface PrepareOptions {
  /** The subgraph's source: a working tree or a bare git repository. */
  source: string;
  /** The commit to take from a bare repository (default HEAD). */
  rev?: string;
  /** A scaled scenario instead of the default one (only for a subgraph with `scalable`). */
  scale?: ScenarioScale;
  log?: (line: string) => void;
}

export interface PreparedRun {
  checkout: Checkout;
  chain: HardhatNode;
  scenario: RealScenario;
  built: BuiltSubgraph;
  schema: SubgraphSchema;
  /** Seconds the scenario took on the chain. */
  scenarioSeconds: number;
  /** Stops the chain and removes the scratch folders. */
  close(): Promise<void>;
}

export async function prepareRealSubgraph(subgraph: RealSubgraph, options: PrepareOptions): Promise<PreparedRun> {
  const log = (line: string) => options.log?.(`[${subgraph.name}] ${line}`);
  if (options.scale && !subgraph.scalable) throw new CheckoutError(`${subgraph.name} has no scaled scenario (--pairs, --trades); only its default one`);
  const checkout = await copyCheckout(options.source, { prefix: `real-subgraph-${subgraph.name}`, ...(options.rev ? { rev: options.rev } : {}) });
  log(`source copied to ${checkout.dir} (commit ${checkout.commit ?? "unknown"})`);
  const missing = (await Promise.all(subgraph.expectedFiles.map(async (f) => ((await pathExists(join(checkout.dir, f))) ? null : f)))).filter((f) => f !== null);
  if (missing.length) {
    await checkout.remove();
    throw new CheckoutError(`${options.source} is not a checkout of ${subgraph.upstream.repository}: it has no ${missing.join(", ")}`);
  }
  if (checkout.commit && checkout.commit !== subgraph.upstream.commit) log(`note: the checks were written against ${subgraph.upstream.commit}`);
  const chain = await startHardhatNode().catch(async (error: unknown) => {
    await checkout.remove();
    throw error;
  });
  let built: BuiltSubgraph | undefined;
  const close = async () => {
    await chain.stop();
    await checkout.remove();
    if (built) await rm(built.workDir, { recursive: true, force: true });
  };
  try {
    const scenarioStarted = Date.now();
    const scenario = await subgraph.scenario({ chainUrl: chain.url, log, ...(options.scale ? { scale: options.scale } : {}) });
    const scenarioSeconds = (Date.now() - scenarioStarted) / 1000;
    log(`scenario done in ${scenarioSeconds.toFixed(1)} s: ${scenario.dataSource} at ${scenario.address} from block ${scenario.startBlock}`);
    await scenario.configure(checkout.dir);
    built = await buildSubgraph({
      projectDir: join(checkout.dir, subgraph.subgraphDir ?? "."),
      files: subgraph.buildFiles,
      network: subgraph.network,
      dataSource: scenario.dataSource,
      address: scenario.address,
      startBlock: scenario.startBlock,
      // The project's graph-ts: the scratch copy has no node_modules of its own (nor has the user's checkout, often).
      nodeModules: join(projectRoot, "node_modules"),
      ...(subgraph.graphCliPackage ? { graphCliBin: join(projectRoot, "node_modules", subgraph.graphCliPackage, "bin", "run") } : {}),
    });
    log(`graph codegen and graph build done${subgraph.graphCliPackage ? ` (with ${subgraph.graphCliPackage}, the release the subgraph pins)` : ""}`);
    const schema = parseSubgraphSchema(await readFile(join(built.buildDir, "schema.graphql"), "utf8"));
    return { checkout, chain, scenario, built, schema, scenarioSeconds, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function pathExists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
