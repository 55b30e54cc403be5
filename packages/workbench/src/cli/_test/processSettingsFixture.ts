// Applies the long-running commands' process settings, then prints what the process got: its pid, V8
// flags and the malloc setting.
import { applyLongRunningSettings } from "../processSettings.js";

applyLongRunningSettings();

console.log(JSON.stringify({ pid: process.pid, execArgv: process.execArgv, mmapThreshold: process.env.MALLOC_MMAP_THRESHOLD_ ?? null }));
