// A case of graph-node's integration suite, restated: its name (the folder under
// tests/integration-tests), the subgraphs deployed before it, and its test function over the context
// graph-node's harness gives (the subgraph's status once synced or failed, its query API, the index-node
// API).

export interface SuiteSubgraph {
  /** `test/<case>`, the name the harness deploys under. */
  name: string;
  /** The deployment id the status API reports. */
  deployment: string;
  synced: boolean;
  healthy: boolean;
}

export interface CaseContext {
  subgraph: SuiteSubgraph;
  /** A query of the subgraph's API (`/subgraphs/name/<name>`): the whole JSON answer. */
  query(text: string): Promise<Record<string, unknown>>;
  /** A query of the index-node API (`/graphql` on the status port). */
  status(text: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export interface IntegrationCase {
  name: string;
  /**
   * Subgraphs deployed first, their placeholders (`@<case>@`) patched with their deployment ids:
   * a graft base, or the sources of `kind: subgraph` data sources.
   */
  sources?: { case: string; kind: "graft" | "subgraph" }[];
  /**
   * Why an engine cannot pass the case whatever it indexes (gnd dev has no log store): the case still
   * runs, and a failure there is reported as "cannot run" with this reason and the failing assertion.
   */
  engineLimits?: Partial<Record<"local" | "graph-node", string>>;
  test(ctx: CaseContext): Promise<void>;
}
