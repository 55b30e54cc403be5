// Test harness: instantiates a compiled fixture against the fixture schema and a memory store.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import { HostError } from "../errors.js";
import { instantiateSubgraph } from "../instance.js";
import { createMemoryEntityStore, type MemoryEntityStore } from "../store/memoryEntityStore.js";
import type { HostOptions, SubgraphInstance } from "../types.js";
import { compileFixture } from "./compileFixture.js";

const here = dirname(fileURLToPath(import.meta.url));

export const fixtureSchema = parseSubgraphSchema(readFileSync(join(here, "schema.graphql"), "utf8"));

export interface Harness {
  instance: SubgraphInstance;
  backend: MemoryEntityStore;
  logs: [string, string][];
  /** Calls an export; string arguments are written as AS strings first. */
  call(name: string, ...args: (string | number | bigint)[]): unknown;
  /** Calls an export that returns a string pointer and reads it. */
  callString(name: string, ...args: (string | number | bigint)[]): string;
}

const modules = new Map<string, WebAssembly.Module>();

export async function fixtureModule(name: string): Promise<WebAssembly.Module> {
  let m = modules.get(name);
  if (m === undefined) {
    m = await WebAssembly.compile((await compileFixture(name)) as Uint8Array<ArrayBuffer>);
    modules.set(name, m);
  }
  return m;
}

export async function createHarness(name: string, overrides: Partial<HostOptions> = {}): Promise<Harness> {
  const backend = createMemoryEntityStore();
  const logs: [string, string][] = [];
  const instance = await instantiateSubgraph(await fixtureModule(name), {
    apiVersion: "0.0.7",
    schema: fixtureSchema,
    store: backend,
    dataSource: { name: "Fixture", address: "0x00000000000000000000000000000000000000aa", network: "localhost", context: null },
    log: (level, message) => logs.push([level, message]),
    ...overrides,
  });
  const call = (fn: string, ...args: (string | number | bigint)[]) =>
    instance.callExport(fn, ...args.map((a) => (typeof a === "string" ? instance.context.codec.writeString(a) : a)));
  return {
    instance,
    backend,
    logs,
    call,
    callString: (fn, ...args) => instance.context.codec.readString(call(fn, ...args) as number),
  };
}

/** The HostError `fn` throws; fails the test when it throws nothing or something else. */
export const errorOf = (fn: () => unknown): HostError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof HostError) return error;
    throw error;
  }
  throw new Error("expected a HostError");
};
