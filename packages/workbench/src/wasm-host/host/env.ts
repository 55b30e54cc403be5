// What every host function family receives: the live codec, store and options of one instance.
import type { AscCodec } from "../abi/codec.js";
import type { HostStore } from "../store/hostStore.js";
import type { BlockPtr } from "../values/storeValue.js";
import type { DataSourceInfo, HostOptions } from "../types.js";

export interface HostEnv {
  readonly codec: AscCodec;
  readonly store: HostStore;
  readonly options: HostOptions;
  block(): BlockPtr | null;
  /** The data source the running handler belongs to. */
  dataSource(): DataSourceInfo;
  /** The export currently running. */
  handler(): string | null;
  exports(): WebAssembly.Exports;
}

/** Host functions keyed by import name (`store.set`, `bigInt.plus`, `abort`, ...). */
export type HostFunctions = Record<string, (...args: any[]) => unknown>;
