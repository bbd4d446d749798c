import { createQueryKeys } from '../../../lib/query/query-keys.ts';

/** A workspace's invitations: `list({ slug })` is all of them, in every state. */
export const invitationKeys = createQueryKeys<{ slug: string }>('invitations');
