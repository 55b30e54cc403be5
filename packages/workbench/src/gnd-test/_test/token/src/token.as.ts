import { ethereum } from "@graphprotocol/graph-ts";
import { Metadata, Token as TokenContract, Transfer } from "../generated/Token/Token";
import { Tick, TokenInfo, TransferRecord } from "../generated/schema";
import { Doc as DocTemplate } from "../generated/templates";

export function handleTransfer(event: Transfer): void {
  const contract = TokenContract.bind(event.address);
  let info = TokenInfo.load(event.address);
  if (info == null) {
    info = new TokenInfo(event.address);
    info.symbol = contract.symbol();
    const decimals = contract.try_decimals();
    info.decimals = decimals.reverted ? -1 : decimals.value;
    info.transfers = 0;
  }
  info.transfers = info.transfers + 1;
  info.save();

  const record = new TransferRecord(event.transaction.hash.concatI32(event.logIndex.toI32()));
  record.from = event.params.from;
  record.to = event.params.to;
  record.value = event.params.value;
  record.block = event.block.number;
  record.timestamp = event.block.timestamp;
  record.txHash = event.transaction.hash;
  record.blockHash = event.block.hash;
  const receipt = event.receipt;
  record.receiptLogs = receipt == null ? -1 : receipt.logs.length;
  record.balanceAfter = contract.balanceOf(event.params.to);
  record.ethBalance = ethereum.getBalance(event.params.to);
  record.toIsContract = ethereum.hasCode(event.params.to).inner;
  record.save();
}

export function handleMetadata(event: Metadata): void {
  DocTemplate.create(event.params.cid);
}

export function handleTick(block: ethereum.Block): void {
  const tick = new Tick(block.number.toString());
  tick.timestamp = block.timestamp;
  tick.save();
}
