// What the handler profile's hooks cost on their own, per handler call: the recorder's enter and leave
// (two clock reads, a row lookup, one bucket search) and the counting store's indirection on a `set`,
// against the same calls on the recorder that records nothing. Measured in a tight loop, so that the
// figure is the hooks' own and not lost in a whole run's spread (bench:indexing --overhead).
import type { EntityData, HostStore } from "../../wasm-host/index.js";
import { createProfileRecorder, NO_PROFILE, withStoreCounts, type ProfileRecorder } from "./handlerProfile.js";

const nothing = () => undefined;
/** A store that does nothing: only the wrapper's own work is timed. */
const BARE_STORE = { get block() { return null; }, get: () => null, getInBlock: () => null, set: nothing, remove: nothing, loadRelated: () => [], beginBlock: nothing, setBlockTime: nothing, clearInBlock: nothing, mockInBlock: nothing, takeChanges: () => [], peekChanges: () => [], reset: nothing, beginHandler: nothing, commitHandler: nothing, rollbackHandler: nothing } satisfies HostStore;

const ENTITY: EntityData = new Map();

function loop(recorder: ProfileRecorder, store: HostStore, calls: number): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    recorder.enter("ApprovalToken", "ApprovalHandler");
    store.set("ApprovalQuery", "id", ENTITY);
    recorder.leave();
    // A run's take, as the host thread posts one per run of about 500 handler calls.
    if (i % 500 === 499) recorder.take();
  }
  return Number(process.hrtime.bigint() - started) / calls;
}

/** Nanoseconds per handler call with the profile, without it, and the difference (medians of `rounds`). */
export function measureProfileHooks(calls = 2_000_000, rounds = 5): { withNs: number; withoutNs: number; costNs: number } {
  const on: number[] = [];
  const off: number[] = [];
  const recorder = createProfileRecorder();
  const counted = withStoreCounts(BARE_STORE, recorder);
  // Warm both paths into optimised code first; then alternate so that the machine's load falls on both.
  loop(recorder, counted, calls / 10);
  loop(NO_PROFILE, BARE_STORE, calls / 10);
  for (let r = 0; r < rounds; r++) {
    on.push(loop(recorder, counted, calls));
    off.push(loop(NO_PROFILE, BARE_STORE, calls));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const withNs = median(on);
  const withoutNs = median(off);
  return { withNs, withoutNs, costNs: Math.max(0, withNs - withoutNs) };
}
