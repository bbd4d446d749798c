import { createQueryKeys } from '../../../lib/query/query-keys.ts';

/** Workspaces: the caller's list, and each one by slug. */
export const workspaceKeys = createQueryKeys<Record<string, never>>('workspaces');
