// A CLI that stops itself once the process that started it is gone (processGuards.test.ts SIGKILLs
// that parent); it writes a marker file when its clean stop runs.
import { writeFileSync } from "node:fs";
import { stopWhenOrphaned } from "../index.js";

const marker = process.argv[2]!;
stopWhenOrphaned(async () => writeFileSync(marker, "stopped cleanly"));
writeFileSync(marker, "watching");
setInterval(() => {}, 1000);
