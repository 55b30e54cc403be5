// A handler that traps: wasm's `unreachable` on a negative count, which no abort reports (a trap names
// no file or line by itself; the runner's source map does, run.test.ts).
export function handleCount(count: i32): i32 {
  if (count < 0) {
    unreachable();
  }
  return count * 2;
}
