// Deploying a built subgraph with the project's graph-cli (`graph create`, `graph deploy`) to a graph
// node: the local one, docker compose's, or a hosted platform's; a graph-cli build folder uploaded as
// `graph build --ipfs` uploads it, so a deploy after a build compiles nothing again.
export { deploySubgraph, type DeploySubgraphParameters, type DeploySubgraphReturnType } from "./deploySubgraph.js";
export { localEndpoints, queryUrlFor } from "./endpoints.js";
export { uploadBuild, type IpfsAdder, type UploadBuildOptions } from "./uploadBuild.js";
export { ipfsHttpAdder, ipfsAddUrl, type IpfsHttpAdderOptions } from "./ipfsHttpAdder.js";
export { DeployError, IpfsAddError, UploadBuildError } from "./errors.js";
