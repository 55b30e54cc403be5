import { Bytes, dataSource, json } from "@graphprotocol/graph-ts";
import { Doc } from "../generated/schema";

export function handleDoc(content: Bytes): void {
  const doc = new Doc(dataSource.stringParam());
  const title = json.fromBytes(content).toObject().get("title");
  doc.title = title == null ? "" : title.toString();
  doc.save();
}
