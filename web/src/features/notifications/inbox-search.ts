import { searchSchema, type UrlRule } from '../../lib/routing/url-rules.ts';
import type { NotificationFilters } from './api/query-keys.ts';

/** `?unread=true`: the router reads it as a boolean; a hand-typed `"true"` counts too. */
const yes: UrlRule<true> = (raw) => (raw === true || raw === 'true' ? true : undefined);

/** The inbox's address: `unread` shows only unread notifications, `archived` the archived ones. */
export const inboxSearchSchema = searchSchema({ unread: yes, archived: yes });

export interface InboxSearch {
  unread?: true | undefined;
  archived?: true | undefined;
}

export function inboxFilters(search: InboxSearch): NotificationFilters {
  return { unread: search.unread === true, archived: search.archived === true };
}
