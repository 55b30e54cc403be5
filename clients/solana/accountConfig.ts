import type { AccountEncoding } from "./accountRecord.js";

export type Commitment = "processed" | "confirmed" | "finalized";

/** Options shared by getAccountInfo and getMultipleAccounts. */
export type AccountConfigParameters<E extends AccountEncoding | undefined> = {
  /** Left out, the node's default applies: base58 for getAccountInfo, base64 for getMultipleAccounts. */
  encoding?: E;
  commitment?: Commitment;
  /** Returns part of the data; not allowed with jsonParsed. */
  dataSlice?: { offset: number; length: number };
  minContextSlot?: number;
};

/** The config object as sent; undefined when nothing is set, so the node's defaults apply untouched. */
export function accountConfig(params: AccountConfigParameters<AccountEncoding | undefined>): Record<string, unknown> | undefined {
  const config: Record<string, unknown> = {};
  if (params.encoding !== undefined) config.encoding = params.encoding;
  if (params.commitment !== undefined) config.commitment = params.commitment;
  if (params.dataSlice !== undefined) config.dataSlice = params.dataSlice;
  if (params.minContextSlot !== undefined) config.minContextSlot = params.minContextSlot;
  return Object.keys(config).length > 0 ? config : undefined;
}
