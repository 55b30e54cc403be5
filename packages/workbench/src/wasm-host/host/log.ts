// log.log and abort.
import type { HostEnv, HostFunctions } from "./env.js";
import { HostAbortError, HostError } from "../errors.js";
import type { LogLevel } from "../types.js";

const LEVELS: LogLevel[] = ["critical", "error", "warning", "info", "debug"];

export function logImports(env: HostEnv): HostFunctions {
  const { codec } = env;
  return {
    "log.log": (level: number, msgPtr: number) => {
      const message = codec.readString(msgPtr);
      // graph-node maps unknown levels to debug.
      const name = LEVELS[level] ?? "debug";
      env.options.log?.(name, message);
      if (name === "critical") {
        throw new HostError("CRITICAL_LOG", `Critical error logged in mapping with log message: ${message}`, { handler: env.handler() });
      }
    },
    abort: (messagePtr: number, filePtr: number, line: number, column: number) => {
      throw new HostAbortError(
        {
          message: messagePtr === 0 ? null : codec.readString(messagePtr),
          file: filePtr === 0 ? null : codec.readString(filePtr),
          line: line >>> 0,
          column: column >>> 0,
        },
        env.handler(),
      );
    },
  };
}
