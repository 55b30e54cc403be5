// Deploying a built subgraph with the project's graph-cli (`graph create`, `graph deploy`) to a graph
// node: the local one, docker compose's, or a hosted platform's.
export { deploySubgraph, type DeploySubgraphParameters, type DeploySubgraphReturnType } from "./deploySubgraph.js";
export { localEndpoints, queryUrlFor } from "./endpoints.js";
export { DeployError } from "./errors.js";
