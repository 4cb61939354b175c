// The frozen tag lists of catalog tools, one list shared by every tool with the same tags.

/** A node of the memo: the list of the tags that lead to it, and the nodes of longer lists. */
interface TagListNode {
  list: readonly string[] | undefined;
  next: Map<string, TagListNode> | undefined;
}

/**
 * Frozen tag lists found tag by tag (a tree: the first tag, then the next...), shared by every tool
 * with the same tags: tools of one server or API mostly repeat their tags, and a list per tool was
 * 60 bytes of heap each. Shared lists are frozen, so sharing them changes nothing a caller can see;
 * the memo starts over past {@link MAX_SHARED_TAG_LISTS} lists (lists made before stay valid).
 * (Found by the tags themselves, whose hashes their strings keep, not by the tags joined: a joined
 * key was a new string to make and hash for every tool.)
 */
const firstTags = new Map<string, TagListNode>();
let sharedLists = 0;
const MAX_SHARED_TAG_LISTS = 50_000;
const NO_TAGS: readonly string[] = Object.freeze([]);

/** A frozen copy of a tool's tags (checked to be strings), shared with tools of the same tags. */
export function frozenTags(tags: readonly string[]): readonly string[] {
  if (tags.length === 0) return NO_TAGS;
  if (sharedLists >= MAX_SHARED_TAG_LISTS) {
    firstTags.clear();
    sharedLists = 0;
  }
  let node = nodeOf(firstTags, tags[0]!);
  for (let i = 1; i < tags.length; i++) {
    node.next ??= new Map();
    node = nodeOf(node.next, tags[i]!);
  }
  if (node.list === undefined) {
    node.list = Object.freeze([...tags]);
    sharedLists += 1;
  }
  return node.list;
}

function nodeOf(nodes: Map<string, TagListNode>, tag: string): TagListNode {
  let node = nodes.get(tag);
  if (node === undefined) {
    node = { list: undefined, next: undefined };
    nodes.set(tag, node);
  }
  return node;
}
