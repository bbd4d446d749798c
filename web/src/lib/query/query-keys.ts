/**
 * One feature's query keys, from general to specific, so that invalidating a prefix reaches everything
 * below it (TkDodo's "Effective React Query Keys"): `all` ⊃ `lists()` ⊃ `list(filters)`, and
 * `all` ⊃ `details()` ⊃ `detail(id)`. A realtime event for one task, say, invalidates `lists()` and
 * `detail(id)` and leaves the other details cached.
 */
export function createQueryKeys<Filters extends object, Id extends string | number = string>(
  feature: string,
) {
  const all = [feature] as const;
  return {
    all,
    lists: () => [...all, 'list'] as const,
    list: (filters: Filters) => [...all, 'list', filters] as const,
    details: () => [...all, 'detail'] as const,
    detail: (id: Id) => [...all, 'detail', id] as const,
  };
}
