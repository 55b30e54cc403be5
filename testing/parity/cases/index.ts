import { accountsCase } from "./accounts.js";
import { approvalsCase } from "./approvals.js";
import { failingHandlerCase } from "./failingHandler.js";
import { twoHandlersCase } from "./twoHandlers.js";
import { factoryCase } from "./factory.js";
import { filesCase } from "./files.js";
import { nonFatalBeforeSyncCase, nonFatalErrorsCase } from "./nonFatalErrors.js";
import { pruningCase } from "./pruning.js";
import { graftingCase, graftingLegacyBaseCase } from "./grafting.js";
import { adminCase } from "./admin.js";
import { timeseriesCase } from "./timeseries.js";
import { aggregationCase } from "./aggregation.js";
import { logsCase } from "./logs.js";
import { indexNodeCase } from "./indexNode.js";
import { abiEncodingErrorCase, abiTypeMismatchCase, overloadedCallsCase } from "./overloadedCalls.js";
import { unquotedAddressesCase } from "./unquotedAddresses.js";
import { compositionCase } from "./composition.js";
import { skipDuplicatesCase } from "./skipDuplicates.js";
import type { ParityCase } from "subgraph-workbench/parity";

/** The cases `npm run parity` and `npm test` run, in order. */
export function builtInCases(): ParityCase[] {
  return [approvalsCase(), accountsCase(), failingHandlerCase(), factoryCase(), filesCase(), nonFatalErrorsCase(), nonFatalBeforeSyncCase(), twoHandlersCase(), pruningCase(), graftingCase(), graftingLegacyBaseCase(), adminCase(), timeseriesCase(), aggregationCase(), overloadedCallsCase(), abiEncodingErrorCase(), abiTypeMismatchCase(), unquotedAddressesCase(), skipDuplicatesCase(), logsCase(), indexNodeCase(), compositionCase()];
}
