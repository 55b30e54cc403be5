// A dev loop as a command runs it: started, then kept until Ctrl-C or the end of the process that
// started this one; a loop that cannot start prints why and exits 1.
import { fail, stopOnSignals, stopWhenOrphaned } from "../cli/index.js";
import { createDevLoop, type DevLoopOptions } from "./devLoop.js";

export async function runDevLoop(options: DevLoopOptions): Promise<void> {
  try {
    const loop = await createDevLoop(options);
    console.log("[dev] press Ctrl-C to stop");
    stopOnSignals(() => loop.close());
    stopWhenOrphaned(() => loop.close());
  } catch (error) {
    fail(error);
  }
}
