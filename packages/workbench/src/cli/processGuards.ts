// What a long-running CLI (the node, `npm start`) does about the process itself: a stray error is
// logged and the process stays up; SIGINT/SIGTERM stop it cleanly, and a second one forces the exit.

/**
 * Logs uncaught exceptions and unhandled rejections instead of letting one of them end the process.
 * Output nobody reads any more (its pipe's reader is gone: EPIPE) is dropped: unhandled, the stream's
 * error became a stray error, whose log line hit the same closed pipe, in a loop that took a whole core.
 */
export function logStrayErrors(log: (line: string) => void = (line) => console.error(line)): void {
  const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error));
  // Nowhere to report them: these are the streams a report would go to.
  for (const output of [process.stdout, process.stderr]) output.on("error", () => {});
  process.on("uncaughtException", (error) => log(`error: uncaught exception (the process keeps running): ${describe(error)}`));
  process.on("unhandledRejection", (reason) => log(`error: unhandled rejection (the process keeps running): ${describe(reason)}`));
}

export interface StopOnSignalsOptions {
  /** Called once the clean stop has finished (default: exit 0). */
  onStopped?: () => void;
  /** Called when the clean stop failed (default: print the error, exit 1). */
  onFailed?: (error: unknown) => void;
  log?: (line: string) => void;
}

/**
 * The first SIGINT or SIGTERM runs `close`; a second one, while `close` still runs (a stuck handler, a
 * server that does not stop), exits at once with 130 (SIGINT) or 143 (SIGTERM), as a shell reports it.
 */
export function stopOnSignals(close: () => Promise<void>, options: StopOnSignalsOptions = {}): void {
  const log = options.log ?? ((line: string) => console.log(line));
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      log(`${signal} again: exiting without waiting for the clean stop`);
      process.exit(signal === "SIGINT" ? 130 : 143);
    }
    closing = true;
    log(`${signal}: stopping (press Ctrl-C again to exit at once)`);
    close().then(
      options.onStopped ?? (() => process.exit(0)),
      options.onFailed ??
        ((error: unknown) => {
          console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        }),
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}

/**
 * Runs `close` (then exits) once this process's parent is gone, e.g. the `tsx` wrapper or `npm` that
 * started it was SIGKILLed: an orphaned CLI would otherwise serve on, with nobody to stop it.
 */
export function stopWhenOrphaned(close: () => Promise<void>, log: (line: string) => void = (line) => console.log(line)): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    log(`the process that started this one (pid ${parent}) is gone: stopping`);
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  }, 1000);
  timer.unref();
}
