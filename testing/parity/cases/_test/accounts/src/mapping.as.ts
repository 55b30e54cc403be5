import { BigInt, Bytes, store } from "@graphprotocol/graph-ts";
import { Approval as ApprovalEvent } from "../generated/ApprovalToken/ApprovalToken";
import { Account, Approval, Note, Orphan, Spender, Tag } from "../generated/schema";

// Accounts and spenders change with every approval (mutable entities, compared over time); each
// approval references both (derived fields and nested filters on the other side).
export function ApprovalHandler(event: ApprovalEvent): void {
  let owner = Account.load(event.params.owner);
  if (owner == null) {
    owner = new Account(event.params.owner);
    owner.approvals = BigInt.zero();
    owner.total = BigInt.zero();
    owner.label = "account-" + event.params.owner.toHexString().slice(2, 8);
  }
  owner.approvals = owner.approvals.plus(BigInt.fromI32(1));
  owner.total = owner.total.plus(event.params.value);
  owner.lastValue = event.params.value;
  owner.save();

  let spender = Spender.load(event.params.spender);
  if (spender == null) {
    spender = new Spender(event.params.spender);
    spender.approvals = BigInt.zero();
  }
  spender.approvals = spender.approvals.plus(BigInt.fromI32(1));
  spender.save();

  const approval = new Approval(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  approval.owner = owner.id;
  approval.spender = spender.id;
  approval.value = event.params.value;
  approval.block = event.block.number;
  approval.save();

  writeUnchanged(event);
  writeNote(event);
}

const WORDS = ["apple", "banana", "cherry", "dates", "elderberry", "figs", "grapes"];

// Text for the full-text search fields, changing with each approval of the owner.
function writeNote(event: ApprovalEvent): void {
  const pick = event.params.value.mod(BigInt.fromI32(WORDS.length)).toI32();
  const note = new Note("note-" + event.params.owner.toHexString());
  note.title = WORDS[pick] + " approvals";
  if (pick % 3 != 0) note.body = "running " + WORDS[(pick + 1) % WORDS.length] + " and " + WORDS[(pick + 3) % WORDS.length] + " quickly";
  note.owner = event.params.owner;
  note.save();
}

// Writes that leave an entity as it was: the same fields saved again, or removed and saved again.
function writeUnchanged(event: ApprovalEvent): void {
  const id = "tag-" + event.params.owner.toHexString();
  const tag = Tag.load(id);
  if (tag == null) {
    saveTag(id, event.params.owner);
  } else if (event.logIndex.toI32() % 2 == 0) {
    store.remove("Tag", id);
    saveTag(id, event.params.owner);
  } else {
    tag.note = "unchanged";
    tag.save();
  }
  if (Orphan.load("orphan") == null) {
    const orphan = new Orphan("orphan");
    orphan.missing = Bytes.fromHexString("0x00000000000000000000000000000000000000ff");
    orphan.save();
  }
}

function saveTag(id: string, owner: Bytes): void {
  const tag = new Tag(id);
  tag.owner = owner;
  tag.note = "unchanged";
  tag.save();
}
