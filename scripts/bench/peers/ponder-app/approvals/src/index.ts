// One insert per Approval log, keyed `<tx hash>-<log index>` as the subgraph keys it. The ABI is read at
// run time (ponder.config.ts), so Ponder cannot type the event's name and arguments: hence the casts.
import { ponder } from "ponder:registry";
import { approval } from "ponder:schema";

type ApprovalEvent = { transaction: { hash: string }; log: { logIndex: number }; args: { owner: `0x${string}`; spender: `0x${string}`; value: bigint } };

ponder.on("ApprovalToken:Approval" as never, (async ({ event, context }: { event: ApprovalEvent; context: { db: any } }) => {
  await context.db.insert(approval).values({
    id: `${event.transaction.hash}-${event.log.logIndex}`,
    owner: event.args.owner,
    spender: event.args.spender,
    value: event.args.value,
  });
}) as never);
