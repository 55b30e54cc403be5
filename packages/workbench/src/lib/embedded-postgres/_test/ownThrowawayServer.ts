// Starts a throwaway server, prints its data folder, and waits to be killed (see embeddedPostgres.test.ts).
import { startThrowawayPostgres } from "../index.js";

const server = await startThrowawayPostgres();
console.log(`ready ${server.dataDir}`);
setInterval(() => undefined, 60_000);
