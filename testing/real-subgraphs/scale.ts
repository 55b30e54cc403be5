// The scaled scenario's command-line options: `--pairs N --trades M`; either alone takes the other's
// default (the workload: 100 pairs, 20,000 operations). Neither: the default scenario.
import type { ScenarioScale } from "./types.js";

export const DEFAULT_SCALE: ScenarioScale = { pairs: 100, trades: 20_000 };

export function parseScale(values: { pairs?: string | undefined; trades?: string | undefined }): ScenarioScale | undefined {
  if (values.pairs === undefined && values.trades === undefined) return undefined;
  const whole = (flag: string, text: string | undefined, fallback: number, least: number): number => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < least) throw new Error(`--${flag} must be a whole number of at least ${least}, not ${JSON.stringify(text)}`);
    return n;
  };
  return { pairs: whole("pairs", values.pairs, DEFAULT_SCALE.pairs, 1), trades: whole("trades", values.trades, DEFAULT_SCALE.trades, 0) };
}
