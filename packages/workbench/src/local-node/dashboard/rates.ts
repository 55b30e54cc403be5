// Events and blocks per second, now and on average, and the time to the head: from the handler profile's
// calls and the deployment's pointer, sampled at each overview request (the page asks every second).
export interface Rates {
  eventsPerSecond: { now: number | null; average: number | null };
  blocksPerSecond: { now: number | null; average: number | null };
  /** At the current block rate; 0 at the head, null when not moving. */
  secondsToHead: number | null;
}

export interface Sample {
  at: number;
  block: number;
  events: number;
}

/** The window "now" is measured over. */
const NOW_WINDOW_MS = 10_000;

export interface RateTracker {
  /** Records where the deployment is and answers its rates. */
  sample(id: string, at: { block: number | null; head: number | null; events: number }, since?: Sample): Rates;
}

export function createRateTracker(now: () => number = Date.now): RateTracker {
  const byDeployment = new Map<string, { first: Sample; recent: Sample[] }>();
  const perSecond = (from: Sample, to: Sample, pick: (s: Sample) => number): number | null => {
    const seconds = (to.at - from.at) / 1000;
    return seconds > 0 ? (pick(to) - pick(from)) / seconds : null;
  };
  return {
    sample(id, { block, head, events }, since) {
      const s: Sample = { at: now(), block: block ?? -1, events };
      let track = byDeployment.get(id);
      if (!track) byDeployment.set(id, (track = { first: s, recent: [] }));
      // The averages count from when indexing started, where the node knows it, not from the page's first look.
      if (since) track.first = since;
      track.recent.push(s);
      while (track.recent.length > 2 && track.recent[1]!.at <= s.at - NOW_WINDOW_MS) track.recent.shift();
      const oldest = track.recent[0]!;
      const blocksNow = perSecond(oldest, s, (x) => x.block);
      const rates: Rates = {
        eventsPerSecond: { now: perSecond(oldest, s, (x) => x.events), average: perSecond(track.first, s, (x) => x.events) },
        blocksPerSecond: { now: blocksNow, average: perSecond(track.first, s, (x) => x.block) },
        secondsToHead: null,
      };
      if (head !== null && block !== null) rates.secondsToHead = block >= head ? 0 : blocksNow && blocksNow > 0 ? (head - block) / blocksNow : null;
      return rates;
    },
  };
}
