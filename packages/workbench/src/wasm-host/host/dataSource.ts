// dataSource.* and ens.nameByHash.
import type { HostEnv, HostFunctions } from "./env.js";
import { HostError } from "../errors.js";
import { tryHexToBytes } from "../values/hex.js";

export function dataSourceImports(env: HostEnv): HostFunctions {
  const { codec, options } = env;
  const create = (name: string, params: string[], context: ReturnType<typeof codec.readEntity> | null) => {
    const ds = env.dataSource();
    if (ds.templates !== undefined && !ds.templates.includes(name)) {
      throw new HostError(
        "DATA_SOURCE",
        `Failed to create data source from name \`${name}\`: No template with this name in parent data source \`${ds.name ?? ""}\`. Available names: ${ds.templates.join(", ")}.`,
      );
    }
    options.log?.("info", `Create data source, name: ${name}, params: ${params.join(",")}`);
    ds.onCreate?.(name, params, context);
  };
  return {
    "dataSource.create": (namePtr: number, paramsPtr: number) => create(codec.readString(namePtr), codec.readStringArray(paramsPtr), null),
    "dataSource.createWithContext": (namePtr: number, paramsPtr: number, contextPtr: number) =>
      create(codec.readString(namePtr), codec.readStringArray(paramsPtr), codec.readEntity(contextPtr)),
    "dataSource.address": () => {
      const { address, kind } = env.dataSource();
      // graph-node answers a file data source's source (its IPFS path) as text bytes.
      if (kind?.startsWith("file/")) return codec.writeBytes(new TextEncoder().encode(address));
      return codec.writeBytes(tryHexToBytes(address) ?? new Uint8Array(0));
    },
    "dataSource.network": () => codec.writeString(env.dataSource().network),
    "dataSource.context": () => codec.writeEntity(env.dataSource().context ?? new Map()),
    "ens.nameByHash": (hashPtr: number) => {
      const hash = codec.readString(hashPtr);
      const name = options.ensNameByHash?.(hash) ?? null;
      // graph-node fails when it has no ENS data at all; a lookup function means there is some.
      if (name === null && options.ensNameByHash === undefined) {
        throw new HostError("UNSUPPORTED", "Missing ENS data: see https://github.com/graphprotocol/ens-rainbow");
      }
      return name === null ? 0 : codec.writeString(name);
    },
  };
}
