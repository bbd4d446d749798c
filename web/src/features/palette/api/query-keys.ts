import { createQueryKeys } from '../../../lib/query/query-keys.ts';

const keys = createQueryKeys<{ slug: string; q: string }>('palette');

/**
 * What the command palette looks up: `list({ slug, q })` a title search, `taskByKey` one task by key,
 * `projects(slug)` the workspace's projects. Its own keys: features share no cache keys.
 */
export const paletteKeys = {
  ...keys,
  taskByKey: (slug: string, taskKey: string) => [...keys.all, 'task', slug, taskKey] as const,
  projects: (slug: string) => [...keys.all, 'projects', slug] as const,
};
