import { createQueryKeys } from '../../../lib/query/query-keys.ts';

/** A workspace's members: `list({ slug })` is all of them. */
export const memberKeys = createQueryKeys<{ slug: string }>('members');
