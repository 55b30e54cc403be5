// A real PostgreSQL server from npm, with no system install: for the test suites, the local node's
// `--postgres` mode and the graph-node engine.
export { startEmbeddedPostgres, SUPERUSER, type EmbeddedPostgres, type EmbeddedPostgresOptions } from "./server.js";
export { startThrowawayPostgres, sweepAbandonedClusters, postgresFromEnvOrThrowaway } from "./throwaway.js";
export { dropDatabase, ensureDatabase } from "./database.js";
export { findPostgresBinaries, type PostgresBinaries } from "./binaries.js";
export { EmbeddedPostgresError } from "./errors.js";
