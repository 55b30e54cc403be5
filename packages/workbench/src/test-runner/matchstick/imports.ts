// The matchstick-as host functions, linked by import name through the host's `extraImports`.
// They override the host's built-ins where Matchstick mocks the outside world: `log.log`
// (levels 0..5, critical stops the run), `dataSource.*` (mocked return values, template registry),
// `ipfs.map` (a mocked file holding a JSON array).
// The store functions are the host's, over the run's TestStore (Matchstick's mock store by default).
// One module per group of imports; each takes the MatchstickLink of the instance (linkContext).
import type { HostContext } from "../../wasm-host/index.js";
import { createLink, type MatchstickImportDeps } from "./linkContext.js";
import { registrationImports } from "./registrationImports.js";
import { assertImports } from "./assertImports.js";
import { storeImports } from "./storeImports.js";
import { logLevelImports, storeLogImports } from "./logImports.js";
import { mockImports } from "./mockImports.js";
import { dataSourceImports } from "./dataSourceImports.js";

export { critical } from "./linkContext.js";
export type { MatchstickImportDeps } from "./linkContext.js";

export function createMatchstickImports(deps: MatchstickImportDeps) {
  // Read once, as the deps are fixed for the run.
  const { state, logger, mockSchema, root } = deps;
  const fixed: MatchstickImportDeps = { state, logger, mockSchema, root };
  return (ctx: HostContext): Record<string, (...args: any[]) => any> => {
    const link = createLink(fixed, ctx);
    return {
      ...registrationImports(link),
      ...assertImports(link),
      ...storeImports(link),
      ...storeLogImports(link),
      ...mockImports(link),
      ...dataSourceImports(link),
      ...logLevelImports(link),
    };
  };
}
