import { createQueryKeys } from '../../../lib/query/query-keys.ts';

/** A workspace's change feed: `list({ slug })` is its most recent events. */
export const activityKeys = createQueryKeys<{ slug: string }>('activity');
