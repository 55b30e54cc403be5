// One row per Swap log, as the subgraph's Swap entity (the fields of Envio's published benchmark).
import { onchainTable } from "ponder";

export const swap = onchainTable("swap", (t) => ({
  id: t.text().primaryKey(),
  sender: t.hex().notNull(),
  recipient: t.hex().notNull(),
  amount0: t.bigint().notNull(),
  amount1: t.bigint().notNull(),
  sqrtPriceX96: t.bigint().notNull(),
  liquidity: t.bigint().notNull(),
  tick: t.bigint().notNull(),
}));
