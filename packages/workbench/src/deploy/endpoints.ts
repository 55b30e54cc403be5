/** Where the local node (or the docker compose graph-node) listens: graph-node's default ports. */
export const localEndpoints = {
  deploy: "http://127.0.0.1:8020",
  ipfs: "http://127.0.0.1:5001",
  query: "http://127.0.0.1:8000",
  status: "http://127.0.0.1:8030/graphql",
} as const;


export function queryUrlFor(name: string, base: string = localEndpoints.query): string {
  return `${base.replace(/\/$/, "")}/subgraphs/name/${name}`;
}
