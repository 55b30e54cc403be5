// The chain data the local node keeps for re-indexing (local-node/chain/chainCache.ts): answers as JSON
// text by chain id and key. graph-node keeps its blocks and eth_call results in its store too (a schema
// per chain); here one table serves every chain.
import type { StoreState } from "./storeState.js";

export const CHAIN_CACHE_SQL = `
create schema if not exists chains;
create table if not exists chains.kept_answer (
  chain_id int8 not null,
  key text not null,
  value text not null,
  primary key (chain_id, key)
);
`;

export async function readKept({ db }: StoreState, chainId: number, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db.query<{ key: string; value: string }>("select key, value from chains.kept_answer where chain_id = $1 and key = any($2::text[])", [chainId, keys]);
  return new Map(rows.map((r) => [r.key, r.value]));
}

export async function writeKept({ db }: StoreState, chainId: number, entries: [string, string][]): Promise<void> {
  if (entries.length === 0) return;
  // One row per key (a statement may not upsert a row twice): the last answer wins.
  const byKey = new Map(entries);
  await db.query(
    `insert into chains.kept_answer (chain_id, key, value) select $1, k, v from unnest($2::text[], $3::text[]) as u(k, v)
       on conflict (chain_id, key) do update set value = excluded.value`,
    [chainId, [...byKey.keys()], [...byKey.values()]],
  );
}

export async function clearKept({ db }: StoreState, chainId: number): Promise<void> {
  await db.query("delete from chains.kept_answer where chain_id = $1", [chainId]);
}
