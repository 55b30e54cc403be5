// THE import table: every host function by import NAME, whatever module the import names
// (AssemblyScript names the module after the declaring file: `index`, `conversion`, `env`, ...).
import type { HostEnv, HostFunctions } from "./host/env.js";
import { storeImports } from "./host/store.js";
import { ethereumImports } from "./host/ethereum.js";
import { cryptoImports } from "./host/crypto.js";
import { typeConversionImports } from "./host/typeConversion.js";
import { bigIntImports } from "./host/bigInt.js";
import { bigDecimalImports } from "./host/bigDecimal.js";
import { jsonImports } from "./host/json.js";
import { yamlImports } from "./host/yaml.js";
import { ipfsImports } from "./host/ipfs.js";
import { dataSourceImports } from "./host/dataSource.js";
import { logImports } from "./host/log.js";
import { HostLinkError } from "./errors.js";

/** All built-in host functions, keyed by import name (graph-node's `link!` list). */
export function hostFunctions(env: HostEnv): HostFunctions {
  return {
    ...ethereumImports(env),
    ...storeImports(env),
    ...cryptoImports(env),
    ...typeConversionImports(env),
    ...bigIntImports(env),
    ...bigDecimalImports(env),
    ...jsonImports(env),
    ...yamlImports(env),
    ...ipfsImports(env),
    ...dataSourceImports(env),
    ...logImports(env),
  };
}

/**
 * Builds the WebAssembly import object for `module` from `functions` (matched by name). Unknown
 * imports fail here, all named at once, as graph-node fails at instantiation.
 */
export function linkImports(module: WebAssembly.Module, functions: HostFunctions, memory: WebAssembly.Memory | null = null): WebAssembly.Imports {
  const imports: Record<string, Record<string, WebAssembly.ImportValue>> = {};
  const unknown: string[] = [];
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind === "memory" && memory !== null) {
      (imports[imp.module] ??= {})[imp.name] = memory;
      continue;
    }
    const fn = functions[imp.name];
    if (imp.kind !== "function" || fn === undefined) {
      unknown.push(`${imp.module}::${imp.name}`);
      continue;
    }
    (imports[imp.module] ??= {})[imp.name] = fn as WebAssembly.ImportValue;
  }
  if (unknown.length > 0) {
    throw new HostLinkError(`unknown import: ${unknown.map((u) => `\`${u}\``).join(", ")} has not been defined`, { unknown });
  }
  return imports;
}
