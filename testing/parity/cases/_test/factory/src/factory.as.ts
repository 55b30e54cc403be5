import { BigInt, DataSourceContext, ethereum } from "@graphprotocol/graph-ts";
import { PoolCreated } from "../generated/PoolFactory/PoolFactory";
import { Pool as PoolTemplate } from "../generated/templates";
import { Factory, Pool } from "../generated/schema";
import { trace } from "./trace.as";

export function handlePoolCreated(event: PoolCreated): void {
  let factory = Factory.load("factory");
  if (factory == null) {
    factory = new Factory("factory");
    factory.poolCount = 0;
  }
  factory.poolCount = factory.poolCount + 1;
  factory.save();

  // The pool's constructor deposit was logged before this event: the pool entity may exist already.
  let pool = Pool.load(event.params.pool);
  if (pool == null) {
    pool = new Pool(event.params.pool);
    pool.total = BigInt.zero();
    pool.depositCount = 0;
    pool.polls = 0;
  }
  pool.index = event.params.index;
  pool.creator = event.params.creator;
  pool.createdAtBlock = event.block.number;
  pool.save();

  const context = new DataSourceContext();
  context.setBigInt("index", event.params.index);
  context.setString("creator", event.params.creator.toHexString());
  PoolTemplate.createWithContext(event.params.pool, context);
  trace("handlePoolCreated", event.block.number, event.address);
}

// Every block from the start block: after the block's events, as graph-node orders block triggers.
export function handleEveryBlock(block: ethereum.Block): void {
  trace("handleEveryBlock", block.number, block.author);
}
