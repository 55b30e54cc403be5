import { dataSource } from "@graphprotocol/graph-ts";
import { Ping } from "../generated/templates/Vault/Vault";
import { Vault } from "../generated/schema";
import { trace } from "./trace.as";

export function handlePing(event: Ping): void {
  const vault = Vault.load(dataSource.address());
  if (vault != null) {
    vault.pingsByAccountOne = vault.pingsByAccountOne + 1;
    vault.lastCount = event.params.count;
    vault.save();
  }
  trace("handlePing", event.block.number, event.address);
}
