import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** The approval project's root folder: where package.json, hardhat.config.ts and networks.json are. */
export const projectRoot = dirname(dirname(fileURLToPath(import.meta.url)));
