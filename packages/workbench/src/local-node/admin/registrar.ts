// The admin methods' meaning, on plain values (graph-node's SubgraphRegistrar): create, deploy,
// remove, reassign, pause, resume. A deploy is loaded and validated completely before the store is
// touched, so a bad deploy leaves the current version serving. Error codes and texts are graph-node's.
import { loadDeployment, DeployError } from "../manifest/index.js";
import { SubgraphExistsError, SubgraphNotFoundError } from "../store/index.js";
import { JsonRpcMethodError, type MethodHandler } from "./jsonRpc.js";
import { readCreateParams, readDeployParams, readPauseParams, readReassignParams, readRemoveParams } from "./params.js";
import type { AdminServerOptions } from "./types.js";
import { DEFAULT_HISTORY_BLOCKS, historyBlocksFor } from "./historyBlocks.js";
import { checkGraftBase } from "./graftBase.js";

/** graph-node's application error codes. */
export const ADMIN_ERROR_CODES = { deploy: 0, remove: 1, create: 2, reassign: 3, pause: 4, resume: 5 } as const;

export type RegistrarOptions = Omit<AdminServerOptions, "port">;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Store failures as graph-node words them (`SubgraphRegistrarError::StoreError`). */
function storeFailure(code: number, error: unknown): JsonRpcMethodError {
  return new JsonRpcMethodError(code, `subgraph registrar error with store: ${message(error)}`, { cause: error });
}

export function createRegistrarMethods(options: RegistrarOptions): Record<string, MethodHandler> {
  const { store, ipfs } = options;
  const nodeId = options.nodeId ?? "default";
  const log = options.log ?? (() => {});
  const queryUrlFor =
    options.queryUrlFor ??
    ((name: string) => {
      // graph-node answers relative URLs (":8000/..."); graph-cli puts the admin URL's host in front.
      const port = options.queryPort ?? 8000;
      return { playground: `:${port}/subgraphs/name/${name}/graphql`, queries: `:${port}/subgraphs/name/${name}` };
    });

  /** A node callback's failure: graph-node answers "internal error" for unknown failures; the log has the cause. */
  async function callback(code: number, what: string, run: () => Promise<void> | undefined): Promise<void> {
    try {
      await run();
    } catch (error) {
      log("error", `${what} failed: ${message(error)}`);
      throw new JsonRpcMethodError(code, "internal error", { cause: error });
    }
  }

  async function activeDeployment(hash: string, code: number): Promise<void> {
    let found: boolean;
    try {
      found = (await store.getDeployment(hash)) !== null;
    } catch (error) {
      throw storeFailure(code, error);
    }
    if (!found) throw new JsonRpcMethodError(code, `deployment not found: ${hash}`);
  }

  return {
    async subgraph_create(raw) {
      const { name } = readCreateParams(raw);
      const code = ADMIN_ERROR_CODES.create;
      try {
        const { id } = await store.createSubgraph(name);
        log("info", `created subgraph ${name}`);
        return { id };
      } catch (error) {
        if (!(error instanceof SubgraphExistsError)) throw storeFailure(code, error);
        // graph-node (since 2020) answers the existing subgraph's id for a name that exists.
        const id = (await store.subgraphId?.(name).catch(() => null)) ?? null;
        if (id !== null) return { id };
        throw new JsonRpcMethodError(code, `subgraph already exists: ${name}`);
      }
    },

    async subgraph_deploy(raw) {
      const params = readDeployParams(raw);
      const code = ADMIN_ERROR_CODES.deploy;
      const { name, ipfs_hash: hash } = params;
      let loaded;
      try {
        loaded = await loadDeployment(ipfs, hash, options.manifestOptions ?? {});
      } catch (error) {
        if (error instanceof DeployError) {
          log("warning", `subgraph_deploy ${name} ${hash} rejected: ${error.message}`);
          throw new JsonRpcMethodError(code, error.message, { cause: error });
        }
        throw new JsonRpcMethodError(code, `subgraph registrar error: ${message(error)}`, { cause: error });
      }
      // A graft base is validated with the manifest (graph-node's Graft::validate), before the name.
      let graft: { base: string; block: { number: number; hash: string } } | undefined;
      if (loaded.graft) {
        let checked;
        try {
          checked = await checkGraftBase(store, loaded.graft, (options.historyBlocks ?? DEFAULT_HISTORY_BLOCKS).reorgThreshold);
        } catch (error) {
          throw storeFailure(code, error);
        }
        if ("invalid" in checked) {
          const message = `subgraph validation error: [the graft base is invalid: ${checked.invalid}]`;
          log("warning", `subgraph_deploy ${name} ${hash} rejected: ${message}`);
          throw new JsonRpcMethodError(code, message);
        }
        graft = checked.graft;
      }
      // As graph-node: the manifest is resolved and validated first, then the name is checked.
      let exists: boolean;
      try {
        exists = await store.subgraphExists(name);
      } catch (error) {
        throw storeFailure(code, error);
      }
      if (!exists) throw new JsonRpcMethodError(code, `subgraph name not found: ${name}`);
      // graph-node checks the start block after the name (the network before it; one hook here).
      let rejection: string | null;
      try {
        rejection = (await options.checkDeployment?.(loaded)) ?? null;
      } catch (error) {
        throw new JsonRpcMethodError(code, `subgraph registrar error: ${message(error)}`, { cause: error });
      }
      if (rejection !== null) {
        log("warning", `subgraph_deploy ${name} ${hash} rejected: ${rejection}`);
        throw new JsonRpcMethodError(code, rejection);
      }
      let newDeployment = false;
      try {
        const startBlock = Math.min(...loaded.dataSources.map((d) => d.startBlock), ...loaded.subgraphDataSources.map((d) => d.startBlock));
        // Entity types file data sources may write get a causality region column, as graph-node creates them.
        const causalityRegionEntities = [...new Set(loaded.fileTemplates.flatMap((t) => t.entities))];
        const before = await store.getDeployment(loaded.id);
        const wasAssigned = before?.assigned === true;
        newDeployment = before === null;
        const historyBlocks = historyBlocksFor(loaded, params.history_blocks, options.historyBlocks ?? DEFAULT_HISTORY_BLOCKS);
        await store.createDeployment({ id: loaded.id, schemaSdl: loaded.schemaSdl, network: loaded.network, startBlock, manifest: loaded.manifestYaml, causalityRegionEntities, historyBlocks, ...(graft ? { graft } : {}) });
        await store.setPendingVersion(name, loaded.id, params.version_label, options.versionSwitching ?? "instant");
        // graph-node assigns a deployment to the deploy's node only when it has no assignment yet.
        if (!wasAssigned) await store.setNodeId(loaded.id, params.node_id ?? nodeId);
      } catch (error) {
        if (error instanceof SubgraphNotFoundError) throw new JsonRpcMethodError(code, `subgraph name not found: ${name}`);
        throw new JsonRpcMethodError(code, `subgraph deployment error: ${message(error)}`, { cause: error });
      }
      try {
        await options.onDeploy(loaded, name, params.version_label, {
          name,
          deploymentId: loaded.id,
          versionLabel: params.version_label,
          nodeId: params.node_id ?? nodeId,
          historyBlocks: params.history_blocks,
          debugFork: params.debug_fork,
          newDeployment,
        });
      } catch (error) {
        throw new JsonRpcMethodError(code, `subgraph deployment error: ${message(error)}`, { cause: error });
      }
      log("info", `deployed ${hash} to ${name}${params.version_label === null ? "" : ` (${params.version_label})`}`);
      return queryUrlFor(name);
    },

    async subgraph_remove(raw) {
      const { name } = readRemoveParams(raw);
      try {
        await store.removeSubgraph(name);
      } catch (error) {
        // graph-node removes nothing and succeeds when the name does not exist.
        if (!(error instanceof SubgraphNotFoundError)) throw storeFailure(ADMIN_ERROR_CODES.remove, error);
        return null;
      }
      await callback(ADMIN_ERROR_CODES.remove, `onRemove ${name}`, () => options.onRemove?.(name));
      log("info", `removed subgraph ${name}`);
      return null;
    },

    async subgraph_reassign(raw) {
      const { ipfs_hash: hash, node_id: node } = readReassignParams(raw);
      await activeDeployment(hash, ADMIN_ERROR_CODES.reassign);
      try {
        await store.setNodeId(hash, node);
      } catch (error) {
        throw storeFailure(ADMIN_ERROR_CODES.reassign, error);
      }
      await callback(ADMIN_ERROR_CODES.reassign, `onReassign ${hash}`, () => options.onReassign?.(hash, node));
      log("info", `reassigned ${hash} to node ${node}`);
      return null;
    },

    async subgraph_pause(raw) {
      const { deployment } = readPauseParams(raw);
      const code = ADMIN_ERROR_CODES.pause;
      await activeDeployment(deployment, code);
      try {
        await store.setPaused(deployment, true);
      } catch (error) {
        throw storeFailure(code, error);
      }
      await callback(code, `onPause ${deployment}`, () => options.onPause?.(deployment));
      log("info", `paused ${deployment}`);
      return null;
    },

    async subgraph_resume(raw) {
      const { deployment } = readPauseParams(raw);
      const code = ADMIN_ERROR_CODES.resume;
      await activeDeployment(deployment, code);
      try {
        await store.setPaused(deployment, false);
      } catch (error) {
        throw storeFailure(code, error);
      }
      await callback(code, `onResume ${deployment}`, () => options.onResume?.(deployment));
      log("info", `resumed ${deployment}`);
      return null;
    },
  };
}
