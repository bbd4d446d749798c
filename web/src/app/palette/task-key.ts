/** A task key as someone types it ("web-12", " WEB-12 "), upper-cased; null when the text is not one. */
export function parseTaskKey(text: string): string | null {
  const match = /^([a-z][a-z0-9]{1,9})-([1-9][0-9]{0,9})$/i.exec(text.trim());
  return match ? `${match[1]?.toUpperCase()}-${match[2]}` : null;
}

/** Whether a keystroke was meant for a field being typed in rather than for a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}
