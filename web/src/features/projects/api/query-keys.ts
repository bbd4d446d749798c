import { createQueryKeys } from '../../../lib/query/query-keys.ts';

/** A workspace's projects: `list({ slug })` is all of them, archived ones included. */
export const projectKeys = createQueryKeys<{ slug: string }>('projects');
