/** Query keys for the health feature, from general to specific, so a prefix invalidates everything below it. */
export const healthKeys = {
  all: ['health'] as const,
  status: () => [...healthKeys.all, 'status'] as const,
};
