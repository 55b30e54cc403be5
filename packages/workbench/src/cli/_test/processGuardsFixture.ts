// A CLI whose clean stop never finishes, and which throws and rejects once it runs: for
// processGuards.test.ts (it must stay up through both, and a second SIGINT must end it).
import { logStrayErrors, stopOnSignals } from "../index.js";

logStrayErrors();
stopOnSignals(() => new Promise<void>(() => {}));
setTimeout(() => {
  throw new Error("a stray throw");
}, 10);
setTimeout(() => void Promise.reject(new Error("a stray rejection")), 20);
setTimeout(() => console.log("still up"), 200);
setInterval(() => {}, 1000);
