// A CLI that logs on and on, for processGuards.test.ts: the test closes the pipes it writes to (as when
// the process reading them dies), and the CLI must stay up without spinning on the closed pipes.
import { logStrayErrors } from "../index.js";

logStrayErrors();
console.log("ready");
setInterval(() => {
  console.log("tick");
  console.error("tock");
}, 20);
