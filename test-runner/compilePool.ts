// Compiles test files on worker threads, one compiler per worker (each loads AssemblyScript once and
// keeps it for every file it gets), so a cold run uses every core. Same arguments and results as the
// in-process compiler (compile.ts).
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
}

const workerPath = fileURLToPath(new URL("./compileWorker.mjs", import.meta.url));

export function createCompilePool(options: CompilerOptions & { jobs: number }): CompilePool {
  const globalTs = join(options.libsFolder, "@graphprotocol", "graph-ts", "global", "global.ts");
  if (!existsSync(globalTs)) {
    throw new CompilerError("@graphprotocol/graph-ts is not installed in the project's node_modules", { details: { expected: globalTs } });
  }
  const ascPath = locateAsc(options.libsFolder);
  const queue: { inFile: string; outFile: string; resolve(r: CompileResult): void; reject(e: Error): void }[] = [];
  const pending = new Map<number, { outFile: string; resolve(r: CompileResult): void; reject(e: Error): void }>();
  const idle: Worker[] = [];
  const workers: Worker[] = [];
  let nextId = 0;

  const dispatch = (): void => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const job = queue.shift()!;
      const id = nextId++;
      pending.set(id, job);
      (worker as Worker & { job?: number }).job = id;
      mkdirSync(dirname(job.outFile), { recursive: true });
      worker.postMessage({ id, args: [...ascArgs(options.root, options.libsFolder, job.inFile, job.outFile), "--baseDir", options.root] });
    }
  };

  const spawn = (): void => {
    const worker = new Worker(workerPath, { workerData: { ascPath } });
    workers.push(worker);
    worker.on("message", (message: Reply | { ready: true }) => {
      if ("id" in message) {
        const job = pending.get(message.id);
        pending.delete(message.id);
        job?.resolve({ ok: message.code === 0 && existsSync(job.outFile), diagnostics: stripAnsi(message.output), outFile: job.outFile });
      }
      idle.push(worker);
      dispatch();
    });
    worker.on("error", (cause) => {
      const id = (worker as Worker & { job?: number }).job;
      const job = id === undefined ? undefined : pending.get(id);
      const error = new CompilerError("a compile worker failed", { cause, details: { ascPath } });
      if (job !== undefined) job.reject(error);
      for (const waiting of queue.splice(0)) waiting.reject(error);
    });
  };

  return {
    compile(inFile, outFile) {
      return new Promise((resolve, reject) => {
        queue.push({ inFile, outFile, resolve, reject });
        // Start workers lazily, up to `jobs`: a warm run with one stale file starts one.
        if (workers.length < options.jobs && workers.length < queue.length + pending.size) spawn();
        dispatch();
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
