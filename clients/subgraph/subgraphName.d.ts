/** The approval subgraph's name on a graph node; SUBGRAPH_NAME overrides it. */
export declare function subgraphName(env?: NodeJS.ProcessEnv): string;
