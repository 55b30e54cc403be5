// A child process that cannot outlive this one. It runs under a small shell that holds a pipe from this
// process on its standard input: when this process ends for any reason (SIGKILL included) the pipe
// closes, and the shell sends the child `signal`, then SIGKILL after `graceSeconds` if it is still there.
// Ending the pipe (`cutLifeline`) is also how the owner asks the child to stop.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

export interface LifelineOptions {
  /** What the child is sent once the pipe closes (a Postgres server's fast shutdown is INT). */
  signal: "INT" | "TERM";
  /** Then SIGKILL after this long if it has not exited; none if undefined. */
  graceSeconds?: number;
}

/** The shell script: `"$0" "$@"` is the child, its exit code the script's. */
export function lifelineScript({ signal, graceSeconds }: LifelineOptions): string {
  const escalate = graceSeconds === undefined ? "" : `; sleep ${Math.max(0, Math.ceil(graceSeconds))}; kill -KILL $server 2>/dev/null`;
  return [
    "exec 3<&0",
    '"$0" "$@" 3<&- </dev/null &',
    "server=$!",
    `(read _ <&3; kill -${signal} $server 2>/dev/null${escalate}) &`,
    "watcher=$!",
    "wait $server; code=$?",
    "kill $watcher 2>/dev/null",
    "exit $code",
  ].join("\n");
}

/** Spawns `command` under the lifeline (standard input becomes the pipe; the child reads /dev/null). */
export function spawnWithLifeline(command: string, args: string[], options: SpawnOptions & { lifeline: LifelineOptions }): ChildProcess {
  const { lifeline, stdio, ...rest } = options;
  const [, out, err] = Array.isArray(stdio) ? stdio : [undefined, stdio, stdio];
  return spawn("/bin/sh", ["-c", lifelineScript(lifeline), command, ...args], { ...rest, stdio: ["pipe", out ?? "pipe", err ?? "pipe"] });
}

/** Asks the child to stop: the shell sends it the lifeline's signal (and SIGKILL after the grace). */
export function cutLifeline(child: ChildProcess): void {
  child.stdin?.end();
}
