// Databases on a server: created with the C collation graph-node requires (template0 allows choosing it).
import pg from "pg";
import { EmbeddedPostgresError } from "./errors.js";

/** Database names go into SQL as identifiers: only plain lowercase ones are accepted. */
function checkName(name: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new EmbeddedPostgresError(`invalid database name ${JSON.stringify(name)}: use lowercase letters, digits and _`);
}

/** Drops a database and ends the sessions still on it. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  checkName(name);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `url` with its database replaced by `name`, created first when missing. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  checkName(name);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
  } finally {
    await client.end().catch(() => undefined);
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
