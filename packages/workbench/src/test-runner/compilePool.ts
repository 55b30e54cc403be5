// Compiles test files on worker threads, one compiler per worker (each loads AssemblyScript once and
// keeps it for every file it gets), so a cold run uses every core. Same arguments and wasm as the
// in-process compiler (compile.ts). The runner never runs asc in its own thread: asc ends its process
// when it crashes, and a crash here only fails the file that caused it.
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ascArgs, locateAsc, stripAnsi, type CompileResult, type CompilerOptions } from "./compile.js";
import { CompilerError } from "./errors.js";

export interface CompilePool {
  compile(inFile: string, outFile: string): Promise<CompileResult>;
  close(): Promise<void>;
}

interface Reply {
  id: number;
  code: number;
  output: string;
  retire: boolean;
}

interface Job {
  inFile: string;
  outFile: string;
  resolve(result: CompileResult): void;
  reject(error: Error): void;
}

const workerPath = fileURLToPath(new URL("./compileWorker.mjs", import.meta.url));

export function createCompilePool(options: CompilerOptions & { jobs: number }): CompilePool {
  const globalTs = join(options.libsFolder, "@graphprotocol", "graph-ts", "global", "global.ts");
  if (!existsSync(globalTs)) {
    throw new CompilerError("@graphprotocol/graph-ts is not installed in the project's node_modules", { details: { expected: globalTs } });
  }
  const ascPath = locateAsc(options.libsFolder);
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const running = new Map<Worker, Job>();
  const workers = new Set<Worker>();
  let closing = false;

  const finish = (job: Job, code: number, output: string): void => {
    job.resolve({ ok: code === 0 && existsSync(job.outFile), diagnostics: stripAnsi(output), outFile: job.outFile });
  };

  const dispatch = (): void => {
    while (queue.length > 0 && workers.size < Math.min(options.jobs, queue.length + running.size) && idle.length === 0) spawn();
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const job = queue.shift()!;
      running.set(worker, job);
      mkdirSync(dirname(job.outFile), { recursive: true });
      worker.postMessage({ id: 0, args: [...ascArgs(options.root, options.libsFolder, job.inFile, job.outFile, options.flags), "--baseDir", options.root] });
    }
  };

  const retire = (worker: Worker): void => {
    workers.delete(worker);
    running.delete(worker);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    void worker.terminate();
  };

  function spawn(): void {
    const worker = new Worker(workerPath, { workerData: { ascPath } });
    workers.add(worker);
    worker.on("message", (message: Reply | { ready: true }) => {
      if ("code" in message) {
        const job = running.get(worker);
        running.delete(worker);
        if (job !== undefined) finish(job, message.code, message.output);
        if (message.retire) {
          retire(worker);
          dispatch();
          return;
        }
      }
      idle.push(worker);
      dispatch();
    });
    worker.on("error", (cause) => {
      const job = running.get(worker);
      retire(worker);
      if (job !== undefined) finish(job, -1, `the AssemblyScript compiler failed: ${cause.message}`);
      if (workers.size === 0 && running.size === 0 && job === undefined) {
        // The compiler cannot even load: nothing queued can compile.
        const error = new CompilerError("could not load the AssemblyScript compiler", { cause, details: { ascPath } });
        for (const waiting of queue.splice(0)) waiting.reject(error);
      }
      dispatch();
    });
    worker.on("exit", (code) => {
      if (closing || !workers.has(worker)) return;
      const job = running.get(worker);
      retire(worker);
      if (job !== undefined) finish(job, code || 1, `the AssemblyScript compiler stopped (exit ${code})`);
      dispatch();
    });
  }

  return {
    compile(inFile, outFile) {
      return new Promise((resolve, reject) => {
        queue.push({ inFile, outFile, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closing = true;
      await Promise.all([...workers].map((w) => w.terminate()));
    },
  };
}
