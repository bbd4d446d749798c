/** Query keys for the account feature, from general to specific, so a prefix invalidates everything below it. */
export const accountKeys = {
  all: ['account'] as const,
  me: () => [...accountKeys.all, 'me'] as const,
  tokens: () => [...accountKeys.all, 'tokens'] as const,
};
