import { DataSourceContext } from "@graphprotocol/graph-ts";
import { Published } from "../generated/ContentRegistry/ContentRegistry";
import { PostMetadata as PostMetadataTemplate } from "../generated/templates";
import { Post, PostMetadata } from "../generated/schema";

export function handlePublished(event: Published): void {
  const post = new Post(event.params.id.toString());
  post.author = event.params.author;
  post.cid = event.params.cid;
  post.metadata = event.params.cid;
  post.sawMetadata = PostMetadata.load(event.params.cid) != null;
  post.withContext = event.params.withContext;
  post.save();
  if (event.params.withContext) {
    const context = new DataSourceContext();
    context.setString("poster", event.params.author.toHexString());
    PostMetadataTemplate.createWithContext(event.params.cid, context);
  } else {
    PostMetadataTemplate.create(event.params.cid);
  }
}
