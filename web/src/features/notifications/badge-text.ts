/** The bell's number: nothing at 0, "99+" above 99 (and when the count stopped at its cap). */
export function badgeText(count: { unread: number; more: boolean } | undefined): string | undefined {
  if (!count || count.unread === 0) return undefined;
  return count.unread > 99 || count.more ? '99+' : String(count.unread);
}
