import { createQueryKeys } from '../../../lib/query/query-keys.ts';

/** A workspace's labels: `list({ slug })` is all of them (a workspace has at most a few hundred). */
export const labelKeys = createQueryKeys<{ slug: string }>('labels');
