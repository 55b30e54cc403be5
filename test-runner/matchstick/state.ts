// The per-instance state of Matchstick's mock environment: the store backend, mocked calls, mocked
// IPFS files, dataSource return values, templates' created data sources and the registered tests.
// Matchstick gives every instance (the test file's, and each describe's registration clone) a fresh one.
import { createMemoryEntityStore, type MemoryEntityStore, type EntityData } from "../../wasm-host/index.js";
import { createEthereumMocks, type EthereumMocks } from "./ethereumMocks.js";

export type Role = "test" | "describe" | "beforeAll" | "afterAll" | "beforeEach" | "afterEach";

/** One `_registerTest` / `_registerDescribe` / `_registerHook` call (Matchstick's meta_tests entry). */
export interface Registration {
  name: string;
  shouldFail: boolean;
  funcIdx: number;
  role: Role;
}

export interface CreatedDataSource {
  kind: string;
  name: string;
  address: string;
  context: EntityData | null;
}

export interface MatchstickState {
  readonly backend: MemoryEntityStore;
  readonly mocks: EthereumMocks;
  /** mockIpfsFile: hash -> file path (relative to the project root, as Matchstick's cwd). */
  readonly ipfs: Map<string, string>;
  /** dataSourceMock.setReturnValues; undefined until set. */
  dataSourceReturn: { address: string; network: string; context: EntityData } | undefined;
  /** Template name -> (address -> created data source). Known templates start empty. */
  readonly templates: Map<string, Map<string, CreatedDataSource>>;
  readonly templateKinds: ReadonlyMap<string, string>;
  readonly registrations: Registration[];
  /**
   * Fields the last `store.set` of an entity wrote as Null, by `type\0id`. graph-node drops null
   * fields; Matchstick keeps them, so `assert.fieldEquals(..., "null")` passes there — and here.
   */
  readonly explicitNulls: Map<string, Set<string>>;
  /**
   * `mockInBlockStore` entities by `type\0id`: Matchstick's separate in-block store, seen only by
   * `store.get_in_block` (never by `store.get`, the assertions or `countEntities`). Emptied by
   * `clearInBlockStore`, kept by `clearStore`.
   */
  readonly inBlockMocks: Map<string, EntityData>;
  /** Set when `log.critical` ran: the whole run stops after the current call. */
  critical: string | null;
}

export function createMatchstickState(templateKinds: ReadonlyMap<string, string>): MatchstickState {
  const templates = new Map<string, Map<string, CreatedDataSource>>();
  for (const name of templateKinds.keys()) templates.set(name, new Map());
  return {
    backend: createMemoryEntityStore(),
    mocks: createEthereumMocks(),
    ipfs: new Map(),
    dataSourceReturn: undefined,
    templates,
    templateKinds,
    registrations: [],
    explicitNulls: new Map(),
    inBlockMocks: new Map(),
    critical: null,
  };
}
