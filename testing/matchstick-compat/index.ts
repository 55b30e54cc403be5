// Public Matchstick suites run on the workbench's runner, with Matchstick's verdicts (`npm run compat:matchstick`).
export { runCompat, type CompatSuite, type CompatSource, type CompatOptions, type CompatResult } from "./compat.js";
