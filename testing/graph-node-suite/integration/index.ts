// graph-node's integration suite (tests/tests/integration_tests.rs), restated case by case, in the
// order of its case list.
import type { IntegrationCase } from "../types.js";
import { blockHandlers, ethereumApi, hostExports, int8, multipleSubgraphDatasources, nonFatalErrors, overloadedFunctions, removeThenUpdate, revertedCalls, subgraphDataSources, timestamp, topicFilter, valueRoundtrip } from "./basicCases.js";
import { declaredCallsBasic, declaredCallsStructFields } from "./declaredCalls.js";
import { poiForFailedSubgraph } from "./failedSubgraph.js";
import { grafted } from "./grafted.js";
import { logsQuery } from "./logsQuery.js";

export function integrationCases(): IntegrationCase[] {
  return [
    revertedCalls,
    hostExports,
    nonFatalErrors,
    overloadedFunctions,
    poiForFailedSubgraph,
    removeThenUpdate,
    valueRoundtrip,
    int8,
    blockHandlers,
    timestamp,
    ethereumApi,
    topicFilter,
    grafted,
    subgraphDataSources,
    multipleSubgraphDatasources,
    declaredCallsBasic,
    declaredCallsStructFields,
    logsQuery,
  ];
}
