// graph-node's stored proof-of-indexing digests, read from its database: the `Poi$` entities of a
// deployment (table `poi2$` in the deployment's schema, one row version per causality region).
import pg from "pg";
import { GraphNodeError } from "./errors.js";

export async function readPoiDigests(postgresUrl: string, deploymentId: string, block: number): Promise<{ region: string; digest: Uint8Array }[]> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const site = await client.query<{ name: string }>("select name from public.deployment_schemas where subgraph = $1", [deploymentId]);
    const schema = site.rows[0]?.name;
    if (!schema || !/^sgd\d+$/.test(schema)) throw new GraphNodeError(`graph-node has no deployment ${deploymentId}`);
    const rows = await client.query<{ id: string; digest: Buffer }>(`select id, digest from ${schema}."poi2$" where block_range @> $1::int4 order by id`, [block]);
    return rows.rows.map((r) => ({ region: r.id, digest: new Uint8Array(r.digest) }));
  } finally {
    await client.end().catch(() => undefined);
  }
}
