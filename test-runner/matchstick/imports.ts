// The matchstick-as host functions, linked by import name through the host's `extraImports`.
// They override the host's built-ins where Matchstick mocks the outside world: `log.log`
// (levels 0..5, critical stops the run), `dataSource.*` (mocked return values, template registry),
// `ipfs.map` (a mocked file holding a JSON array) and `store.get_in_block` (Matchstick's separate
// in-block mocks). Store writes keep graph-node's semantics (the host); `store.set` only also notes
// explicit nulls so `assert.fieldEquals(..., "null")` behaves as in Matchstick.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { HostContext, EntityData, StoreValue, EthereumValue } from "../../wasm-host/index.js";
import type { SubgraphSchema } from "../../subgraph-schema/index.js";
import { CriticalAbort } from "../errors.js";
import { LEVELS, type Logger } from "../logger.js";
import { createAsserts } from "./asserts.js";
import { parseJsonText } from "./jsonText.js";
import type { MatchstickState, Role } from "./state.js";
import { bytesHex, entityToJson } from "./values.js";

export interface MatchstickImportDeps {
  state: MatchstickState;
  logger: Logger;
  schema: SubgraphSchema;
  /** Project root: relative paths in readFile/mockIpfsFile resolve here (Matchstick's cwd). */
  root: string;
}

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
const ROLES: readonly Role[] = ["beforeAll", "afterAll", "beforeEach", "afterEach"];

/** Stops the run the way Matchstick's `logging::critical!` (a panic) does. */
export function critical(state: MatchstickState, logger: Logger, message: string): never {
  state.critical = message;
  logger.clearIndent();
  throw new CriticalAbort(message);
}

export function syncStore(ctx: HostContext, state: MatchstickState): void {
  const changes = ctx.store.takeChanges();
  if (changes.length > 0) state.backend.apply(changes, ctx.store.block?.number);
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export function createMatchstickImports(deps: MatchstickImportDeps) {
  const { state, logger, schema, root } = deps;
  return (ctx: HostContext): Record<string, (...args: any[]) => any> => {
    const codec = ctx.codec;
    const str = (ptr: number): string => codec.readString(ptr);
    const values = (ptr: number): EthereumValue[] => codec.readArray(ptr, (p) => codec.readEthereumValue(p));
    const sync = (): void => syncStore(ctx, state);
    const asserts = createAsserts({ state, logger, sync });
    const readProjectFile = (path: string): Uint8Array => {
      try {
        return readFileSync(resolve(root, path));
      } catch (err) {
        return critical(state, logger, `Failed to read file \`${path}\` with error: ${(err as Error).message}`);
      }
    };
    const requiredFieldsCheck = (entityType: string, data: EntityData): void => {
      const def = schema.entities.get(entityType);
      if (def === undefined) critical(state, logger, "Something went wrong! Could not find the entity defined in the GraphQL schema.");
      for (const field of def.fields) {
        if (!field.nonNull || field.derivedFrom !== null) continue;
        const value: StoreValue | undefined = data.get(field.name);
        if (value === undefined) throw new Error(`Missing value for non-nullable field '${field.name}' for an entity of type '${entityType}'.`);
        if (value.kind === "Null") throw new Error(`The required field '${field.name}' for an entity of type '${entityType}' is null.`);
      }
    };
    const createDataSource = (name: string, params: string[], context: EntityData | null): void => {
      const kind = state.templateKinds.get(name);
      const created = state.templates.get(name);
      if (kind === undefined || created === undefined) {
        throw new Error(
          `Failed to create data source from name \`${name}\`: No template with this name available. Available names: ${[...state.templateKinds.keys()].join(", ")}.`,
        );
      }
      const address = params[0] ?? "";
      created.set(address, { kind, name, address, context });
    };

    return {
      // Test registration (during _start and describe bodies).
      _registerTest: (name: number, shouldFail: number, funcIdx: number) => {
        state.registrations.push({ name: str(name), shouldFail: shouldFail !== 0, funcIdx: funcIdx >>> 0, role: "test" });
      },
      _registerDescribe: (name: number, funcIdx: number) => {
        state.registrations.push({ name: str(name), shouldFail: false, funcIdx: funcIdx >>> 0, role: "describe" });
      },
      _registerHook: (funcIdx: number, role: number) => {
        const r = str(role);
        if (!(ROLES as readonly string[]).includes(r)) critical(state, logger, `Unrecognized function type \`${r}\``);
        state.registrations.push({ name: "", shouldFail: false, funcIdx: funcIdx >>> 0, role: r as Role });
      },

      // Assertions.
      "_assert.fieldEquals": (t: number, id: number, f: number, e: number) => asserts.fieldEquals(str(t), str(id), str(f), str(e), null),
      "_assert.fieldEqualsWithMessage": (t: number, id: number, f: number, e: number, m: number) => asserts.fieldEquals(str(t), str(id), str(f), str(e), str(m)),
      "_assert.equals": (e: number, a: number) => asserts.equals(codec.readEthereumValue(e), codec.readEthereumValue(a), null),
      "_assert.equalsWithMessage": (e: number, a: number, m: number) => asserts.equals(codec.readEthereumValue(e), codec.readEthereumValue(a), str(m)),
      "_assert.notInStore": (t: number, id: number) => asserts.notInStore(str(t), str(id), null),
      "_assert.notInStoreWithMessage": (t: number, id: number, m: number) => asserts.notInStore(str(t), str(id), str(m)),
      "_assert.dataSourceCount": (t: number, n: number) => asserts.dataSourceCount(str(t), n >>> 0, null),
      "_assert.dataSourceCountWithMessage": (t: number, n: number, m: number) => asserts.dataSourceCount(str(t), n >>> 0, str(m)),
      "_assert.dataSourceExists": (t: number, a: number) => asserts.dataSourceExists(str(t), str(a), null),
      "_assert.dataSourceExistsWithMessage": (t: number, a: number, m: number) => asserts.dataSourceExists(str(t), str(a), str(m)),

      // graph-node's store.set (the host's semantics), remembering explicit nulls for fieldEquals.
      "store.set": (t: number, id: number, data: number) => {
        const entityType = str(t);
        const entityId = str(id);
        const entity = codec.readEntity(data);
        ctx.store.set(entityType, entityId, entity);
        const nulls = [...entity].filter(([, v]) => v.kind === "Null").map(([k]) => k);
        const key = `${entityType}\0${entityId}`;
        if (nulls.length > 0) state.explicitNulls.set(key, new Set(nulls));
        else state.explicitNulls.delete(key);
      },

      // Store helpers. The store is never cleared automatically; clearInBlockStore ends a block.
      clearStore: () => {
        ctx.store.reset();
        state.backend.clear();
        state.explicitNulls.clear();
      },
      clearInBlockStore: () => {
        sync();
        ctx.store.clearInBlock();
        state.inBlockMocks.clear();
      },
      mockInBlockStore: (t: number, id: number, data: number) => {
        const entityType = str(t);
        const entity = codec.readEntity(data);
        requiredFieldsCheck(entityType, entity);
        state.inBlockMocks.set(`${entityType}\0${str(id)}`, entity);
      },
      // Matchstick's in-block mocks first, then what the current block wrote (graph-node).
      "store.get_in_block": (t: number, id: number) => {
        const entityType = str(t);
        const entityId = str(id);
        const entity = state.inBlockMocks.get(`${entityType}\0${entityId}`) ?? ctx.store.getInBlock(entityType, entityId);
        return entity === null ? 0 : codec.writeEntity(entity);
      },
      countEntities: (t: number) => {
        sync();
        return state.backend.count(str(t));
      },
      logStore: () => {
        sync();
        const out: Record<string, Record<string, unknown>> = {};
        for (const type of state.backend.types()) {
          out[type] = Object.fromEntries(state.backend.entries(type).map(([id, data]) => [id, entityToJson(data)]));
        }
        logger.log("debug", pretty(out));
      },
      logEntity: (t: number, id: number, showRelated: number) => {
        sync();
        const entityType = str(t);
        const entityId = str(id);
        const def = schema.entities.get(entityType);
        if (def === undefined) critical(state, logger, `(logEntity) Entity "${entityType}" does not match any of the schema definitions`);
        const out: Record<string, unknown> = {};
        const row = state.backend.get(entityType, entityId);
        if (row !== null) {
          Object.assign(out, entityToJson(row.data));
          if (showRelated !== 0) {
            for (const field of def.fields) {
              if (field.derivedFrom === null) continue;
              out[field.name] = ctx.store.loadRelated(entityType, entityId, field.name).map(entityToJson);
            }
          }
        }
        logger.log("debug", pretty(out));
      },
      logDataSources: (t: number) => {
        const template = str(t);
        const created = state.templates.get(template);
        if (created === undefined) critical(state, logger, `(logDataSources) No template with name '${template}' found.`);
        const out: Record<string, unknown> = {};
        for (const [address, ds] of created) out[address] = { kind: ds.kind, name: ds.name, address: ds.address, context: ds.context === null ? null : entityToJson(ds.context) };
        logger.log("debug", pretty(out));
      },

      // Mocks of the outside world.
      mockFunction: (address: number, name: number, signature: number, args: number, returns: number, reverts: number) => {
        state.mocks.mock({
          address: bytesHex(codec.readBytes(address)),
          name: str(name),
          signature: str(signature),
          args: values(args),
          returns: values(returns),
          reverts: reverts !== 0,
        });
      },
      mockIpfsFile: (hash: number, path: number) => {
        state.ipfs.set(str(hash), str(path));
      },
      readFile: (path: number) => codec.writeBytes(readProjectFile(str(path))),
      "ipfs.map": (link: number, callback: number, userData: number, _flags: number) => {
        const hash = str(link);
        const path = state.ipfs.get(hash);
        if (path === undefined) critical(state, logger, `IPFS file \`${hash}\` not found`);
        const parsed = parseJsonText(Buffer.from(readProjectFile(path)).toString("utf8"));
        const items = parsed.kind === "array" ? parsed.value : critical(state, logger, `IPFS file \`${hash}\` is not a JSON array`);
        const name = str(callback);
        const fn = ctx.exports[name];
        if (typeof fn !== "function") throw new Error(`function ${name} not found`);
        for (const item of items) (fn as (value: number, userData: number) => void)(codec.writeJsonValue(item), userData);
      },
      "dataSource.create": (name: number, params: number) => createDataSource(str(name), codec.readStringArray(params), null),
      "dataSource.createWithContext": (name: number, params: number, context: number) =>
        createDataSource(str(name), codec.readStringArray(params), codec.readEntity(context)),
      "dataSource.address": () => {
        const mocked = state.dataSourceReturn?.address;
        if (mocked === undefined) {
          logger.log("error", "No mocked Eth address or Ipfs CID found, so fallback to Eth Zero address");
          return codec.writeBytes(new Uint8Array(20));
        }
        // A valid non-zero address (or exactly the zero address) is an Address; anything else an IPFS CID's bytes.
        const isAddress = /^(0x)?[0-9a-fA-F]{40}$/.test(mocked);
        if ((isAddress && !/^(0x)?0{40}$/.test(mocked)) || mocked === ZERO_ADDRESS) {
          return codec.writeBytes(Uint8Array.from(Buffer.from(mocked.replace(/^0x/, ""), "hex")));
        }
        return codec.writeBytes(new TextEncoder().encode(mocked));
      },
      "dataSource.network": () => codec.writeString(state.dataSourceReturn?.network ?? "mainnet"),
      "dataSource.context": () => codec.writeEntity(state.dataSourceReturn?.context ?? new Map()),
      "dataSourceMock.setReturnValues": (address: number, network: number, context: number) => {
        state.dataSourceReturn = { address: str(address), network: str(network), context: codec.readEntity(context) };
      },

      // matchstick-as's log levels: 0 critical (stops the run) .. 4 debug, 5 success.
      "log.log": (level: number, message: number) => {
        const text = str(message);
        const name = LEVELS[level];
        if (name === undefined) critical(state, logger, "Level is not supported!");
        if (name === "critical") critical(state, logger, text);
        logger.log(name, text);
      },
    };
  };
}
