import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project's root folder (where package.json is), wherever the code runs from. */
export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
