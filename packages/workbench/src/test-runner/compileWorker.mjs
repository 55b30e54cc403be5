// One compile worker: loads the project's AssemblyScript compiler once, then runs `asc` for each
// file the pool sends ({ id, args }) and answers { id, code, output, retire }. Plain JavaScript so that
// it starts without a TypeScript loader. asc reports an internal crash with console.error and
// process.exit(1); both are caught here, the crash becomes that file's compile failure, and the worker
// retires (asc's state after a crash is not trusted) so the pool starts a fresh one.
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";

const require = createRequire(workerData.ascPath);
const asc = require(workerData.ascPath);
await asc.ready;

class AscExit extends Error {
  constructor(code) {
    super(`asc exited with code ${code}`);
    this.code = code;
  }
}

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
  const crashText = [];
  const { error: consoleError } = console;
  const { exit } = process;
  console.error = (...parts) => crashText.push(parts.join(" "));
  process.exit = (code) => {
    throw new AscExit(code ?? 0);
  };
  try {
    const code = asc.main(args, { stdout, stderr });
    parentPort.postMessage({ id, code, output: stderr.text() + stdout.text() + crashText.join("\n"), retire: false });
  } catch (error) {
    const code = error instanceof AscExit ? error.code || 1 : -1;
    const detail = error instanceof AscExit ? "" : `\nthe AssemblyScript compiler crashed: ${error?.stack ?? error}`;
    parentPort.postMessage({ id, code, output: stderr.text() + stdout.text() + crashText.join("\n") + detail, retire: true });
  } finally {
    console.error = consoleError;
    process.exit = exit;
  }
});
parentPort.postMessage({ ready: true, version: asc.version ?? "unknown" });
