import { Bytes, dataSource, json, JSONValueKind } from "@graphprotocol/graph-ts";
import { FileSeen, PostMetadata } from "../generated/schema";

export function handleMetadata(content: Bytes): void {
  const id = dataSource.stringParam();
  const meta = new PostMetadata(id);
  meta.sawItself = PostMetadata.load(id) != null;
  meta.bytes = content.length;
  meta.network = dataSource.network();
  const tags: string[] = [];
  meta.title = "(not json)";
  const parsed = json.try_fromBytes(content);
  if (parsed.isOk && parsed.value.kind == JSONValueKind.OBJECT) {
    const object = parsed.value.toObject();
    const title = object.get("title");
    meta.title = title != null && title.kind == JSONValueKind.STRING ? title.toString() : "(untitled)";
    const list = object.get("tags");
    if (list != null && list.kind == JSONValueKind.ARRAY) {
      const items = list.toArray();
      for (let i = 0; i < items.length; i++) if (items[i].kind == JSONValueKind.STRING) tags.push(items[i].toString());
    }
  }
  meta.tags = tags;
  const context = dataSource.context();
  if (context.isSet("poster")) meta.poster = context.getString("poster");
  meta.save();

  let seen = FileSeen.load(id);
  if (seen == null) {
    seen = new FileSeen(id);
    seen.count = 0;
  }
  seen.count = seen.count + 1;
  seen.lastTitle = meta.title;
  seen.save();
}
