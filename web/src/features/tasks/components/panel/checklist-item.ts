/**
 * A GitHub-style task-list item at `offset` in a description (where its list item starts, as the
 * markdown parser reports it): `- [ ] write`, `* [x] ship`, `1. [ ] plan`.
 */
const ITEM = /^([ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[)([ xX])(\])/;

/**
 * The description with the item at `offset` ticked or unticked; null when no item starts there (the
 * description changed meanwhile), so that nothing else is ever changed by mistake.
 */
export function withItemTicked(description: string, offset: number, ticked: boolean): string | null {
  const lineStart = description.lastIndexOf('\n', offset - 1) + 1;
  const match = ITEM.exec(description.slice(lineStart));
  if (!match || match[1] === undefined) return null;
  const at = lineStart + match[1].length;
  return `${description.slice(0, at)}${ticked ? 'x' : ' '}${description.slice(at + 1)}`;
}
