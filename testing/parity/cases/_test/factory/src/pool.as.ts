import { BigInt, dataSource, ethereum } from "@graphprotocol/graph-ts";
import { Deposit as DepositEvent, VaultOpened } from "../generated/templates/Pool/Pool";
import { Vault as VaultTemplate } from "../generated/templates";
import { Deposit, Pool, Vault } from "../generated/schema";
import { trace } from "./trace.as";

function loadPool(): Pool {
  const address = dataSource.address();
  let pool = Pool.load(address);
  if (pool == null) {
    // A deposit logged by the pool's constructor runs before the factory's PoolCreated handler.
    pool = new Pool(address);
    pool.index = dataSource.context().getBigInt("index");
    pool.creator = address;
    pool.createdAtBlock = BigInt.zero();
    pool.total = BigInt.zero();
    pool.depositCount = 0;
    pool.polls = 0;
  }
  return pool;
}

export function handleDeposit(event: DepositEvent): void {
  const pool = loadPool();
  pool.total = pool.total.plus(event.params.amount);
  pool.depositCount = pool.depositCount + 1;
  pool.save();
  const deposit = new Deposit(event.transaction.hash.concatI32(event.logIndex.toI32()));
  deposit.pool = pool.id;
  deposit.who = event.params.who;
  deposit.amount = event.params.amount;
  deposit.contextIndex = dataSource.context().getBigInt("index");
  deposit.save();
  trace("handleDeposit", event.block.number, event.address);
}

export function handleVaultOpened(event: VaultOpened): void {
  const vault = new Vault(event.params.vault);
  vault.pool = dataSource.address();
  vault.pingsByAccountOne = 0;
  vault.lastCount = BigInt.zero();
  vault.network = dataSource.network();
  vault.save();
  VaultTemplate.create(event.params.vault);
  trace("handleVaultOpened", event.block.number, event.address);
}

export function handlePoolInit(block: ethereum.Block): void {
  const pool = loadPool();
  pool.initBlock = block.number;
  pool.save();
  trace("handlePoolInit", block.number, dataSource.address());
}

export function handlePoolPoll(block: ethereum.Block): void {
  const pool = loadPool();
  pool.polls = pool.polls + 1;
  pool.lastPolledBlock = block.number;
  pool.save();
  trace("handlePoolPoll", block.number, dataSource.address());
}
