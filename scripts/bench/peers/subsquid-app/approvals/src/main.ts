// One Approval row per Approval log, keyed `<tx hash>-<log index>` as the subgraph keys it, inserted a
// batch at a time as the SDK's templates do.
import {TypeormDatabase} from '@subsquid/typeorm-store'
import * as approvalToken from './abi/ApprovalToken'
import {Approval} from './model'
import {processor, TOKEN} from './processor'

processor.run(new TypeormDatabase({supportHotBlocks: true}), async (ctx) => {
    const approvals: Approval[] = []
    for (const block of ctx.blocks) {
        for (const log of block.logs) {
            if (log.address !== TOKEN || log.topics[0] !== approvalToken.events.Approval.topic) continue
            const {owner, spender, value} = approvalToken.events.Approval.decode(log)
            approvals.push(
                new Approval({
                    id: `${log.transactionHash}-${log.logIndex}`,
                    owner: owner.toLowerCase(),
                    spender: spender.toLowerCase(),
                    value,
                })
            )
        }
    }
    await ctx.store.insert(approvals)
})
