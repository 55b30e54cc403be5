export { loadDeployment } from "./loadDeployment.js";
export { findAbiEvent, topic0Of, eventSignature, eventSignatureWithIndexed } from "./abiEvents.js";
export { DeployError } from "./errors.js";
export type { DeployErrorCode } from "./errors.js";
export type {
  AbiEventEntry,
  AbiParam,
  LoadDeploymentOptions,
  LoadedCallHandler,
  LoadedDataSource,
  LoadedDeployment,
  LoadedEventHandler,
  LoadedFileTemplate,
  LoadedMapping,
  LoadedTemplate,
} from "./types.js";
