// One compile worker: loads the project's AssemblyScript compiler once, then runs `asc` for each
// file the pool sends ({ id, args }) and answers { id, code, output }. Plain JavaScript so that it
// starts without a TypeScript loader.
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";

const require = createRequire(workerData.ascPath);
const asc = require(workerData.ascPath);
await asc.ready;

function sink() {
  const chunks = [];
  return {
    write(chunk) {
      chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return true;
    },
    text: () => chunks.join(""),
  };
}

parentPort.on("message", ({ id, args }) => {
  const stdout = sink();
  const stderr = sink();
  try {
    const code = asc.main(args, { stdout, stderr });
    parentPort.postMessage({ id, code, output: stderr.text() + stdout.text() });
  } catch (error) {
    parentPort.postMessage({ id, code: -1, output: `${stderr.text()}${stdout.text()}\nthe AssemblyScript compiler crashed: ${error?.stack ?? error}` });
  }
});
parentPort.postMessage({ ready: true, version: asc.version ?? "unknown" });
