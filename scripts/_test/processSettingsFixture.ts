// Prints what runCompiled.mjs gave the process it runs: its pid, V8 flags and the malloc setting.
console.log(JSON.stringify({ pid: process.pid, execArgv: process.execArgv, mmapThreshold: process.env.MALLOC_MMAP_THRESHOLD_ ?? null }));
