/** The approval subgraph's name on a graph node; SUBGRAPH_NAME overrides it. */
export function subgraphName(env: NodeJS.ProcessEnv = process.env): string {
  return env.SUBGRAPH_NAME ?? "local/approvals";
}
