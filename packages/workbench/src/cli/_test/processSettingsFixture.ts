// Applies the long-running commands' process settings, then prints what the process got: its pid, V8
// flags, the malloc setting, and the young generation a worker thread asking for 4 MiB got (after
// allocating enough to grow it to its limit).
import { Worker } from "node:worker_threads";
import { applyLongRunningSettings } from "../processSettings.js";

applyLongRunningSettings();

const churn = `
const { getHeapSpaceStatistics } = require("node:v8");
let kept = [];
for (let i = 0; i < 400000; i++) { kept.push({ i, s: "x" + i }); if (kept.length > 2000) kept = []; }
const young = getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
require("node:worker_threads").parentPort.postMessage(young.space_size / 2 ** 20);`;
const workerYoungMiB = await new Promise<number>((resolve, reject) => {
  const worker = new Worker(churn, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
  worker.once("message", resolve);
  worker.once("error", reject);
});
console.log(JSON.stringify({ pid: process.pid, execArgv: process.execArgv, mmapThreshold: process.env.MALLOC_MMAP_THRESHOLD_ ?? null, workerYoungMiB }));
