// What the workbench's commands share for their command lines, for a project's own scripts too: flag
// parsing with clear errors, process guards, and a reaper for the processes a command starts.
export { fail, parseCli } from "./args.js";
export { logStrayErrors, stopOnSignals, stopWhenOrphaned } from "./processGuards.js";
export { startChildReaper } from "./childReaper.js";
