// The per-instance state of Matchstick's mock environment: the store, mocked calls, mocked IPFS
// files, dataSource return values, templates' created data sources and the registered tests.
// Matchstick gives every instance (the test file's, and each describe's registration clone) a fresh one.
import type { EntityData } from "../../wasm-host/index.js";
import { createEthereumMocks, type EthereumMocks } from "./ethereumMocks.js";
import type { TestStore } from "./testStore.js";

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
  /** The store in the run's semantics (Matchstick's mock store, or graph-node's with --strict). */
  readonly store: TestStore;
  readonly mocks: EthereumMocks;
  /** mockIpfsFile: hash -> file path (relative to the project root, as Matchstick's cwd). */
  readonly ipfs: Map<string, string>;
  /** dataSourceMock.setReturnValues; undefined until set. */
  dataSourceReturn: { address: string; network: string; context: EntityData } | undefined;
  /** Template name -> (address -> created data source). Known templates start empty. */
  readonly templates: Map<string, Map<string, CreatedDataSource>>;
  readonly templateKinds: ReadonlyMap<string, string>;
  readonly registrations: Registration[];
  /** Set when `log.critical` ran: the whole run stops after the current call. */
  critical: string | null;
}

/** `makeStore` gets the state so that the store can stop the run (Matchstick's critical errors). */
export function createMatchstickState(templateKinds: ReadonlyMap<string, string>, makeStore: (state: MatchstickState) => TestStore): MatchstickState {
  const templates = new Map<string, Map<string, CreatedDataSource>>();
  for (const name of templateKinds.keys()) templates.set(name, new Map());
  let store: TestStore | null = null;
  const state: MatchstickState = {
    get store(): TestStore {
      if (store === null) throw new Error("the test store is not created yet");
      return store;
    },
    mocks: createEthereumMocks(),
    ipfs: new Map(),
    dataSourceReturn: undefined,
    templates,
    templateKinds,
    registrations: [],
    critical: null,
  };
  store = makeStore(state);
  return state;
}
