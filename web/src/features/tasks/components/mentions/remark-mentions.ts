import { mentionParts } from '../../../../lib/mentions/mention-text.ts';

/** The little of mdast this plugin touches (the `mdast` types are not a dependency of the web). */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: { hName?: string; hProperties?: Record<string, string>; hChildren?: [] };
}

/**
 * A remark plugin: each `<@uuid>` in the markdown's text becomes a `mention` node, which turns into
 * `<span data-mention="uuid">` in the tree react-markdown renders, and Markdown's `span` draws it as a
 * MentionChip with the member's current name. Why this way: the mention is found after markdown has
 * parsed the text, so only prose is touched (code spans and blocks keep `<@uuid>` as written, since their
 * text is not a `text` node), no HTML is ever written or parsed (react-markdown still skips raw HTML), and
 * the name is looked up when drawing, so a renamed member reads with their new name.
 */
export function remarkMentions() {
  return (tree: object): void => {
    splitMentions(tree as MdNode);
  };
}

function splitMentions(node: MdNode): void {
  if (!node.children) return;
  node.children = node.children.flatMap((child): MdNode[] => {
    if (child.type !== 'text' || child.value === undefined) {
      splitMentions(child);
      return [child];
    }
    const parts = mentionParts(child.value);
    if (parts.every((part) => part.kind === 'text')) return [child];
    return parts.map((part) =>
      part.kind === 'text'
        ? { type: 'text', value: part.text }
        : {
            type: 'mention',
            data: { hName: 'span', hProperties: { dataMention: part.userId }, hChildren: [] },
          },
    );
  });
}
