/** The approval subgraph's name on a graph node; SUBGRAPH_NAME overrides it. */
export function subgraphName(env = process.env) {
    return env.SUBGRAPH_NAME ?? "local/approvals";
}
