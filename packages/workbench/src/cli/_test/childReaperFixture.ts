// A CLI that starts the child reaper, then a long-running child process, prints the child's pid and
// waits: childReaper.test.ts SIGKILLs it and expects the child to end too.
import { spawn } from "node:child_process";
import { startChildReaper } from "../index.js";

startChildReaper();
const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
console.log(`child ${child.pid}`);
setInterval(() => {}, 1000);
