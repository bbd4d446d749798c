import type { MutationFunctionContext, QueryKey } from '@tanstack/react-query';

interface OptimisticUpdateOptions<Data, Variables> {
  /** The cached query the change shows in at once (a function when it depends on the variables). */
  queryKey: QueryKey | ((variables: Variables) => QueryKey);
  /** The cached data as it will be once the server agrees; returns a new value, never mutates. */
  apply: (data: Data, variables: Variables) => Data;
}

/** What `onMutate` hands to `onError`: the cached data as it was before the change. */
export interface OptimisticSnapshot<Data> {
  previous: Data | undefined;
}

/**
 * The callbacks of a mutation that shows its change before the server answers (a card dragged to
 * another column), in TanStack Query's optimistic-update recipe: `onMutate` stops fetches in flight and
 * writes the change into the cache, `onError` puts back what was there, and `onSettled` refetches so the
 * cache ends up as the server has it either way. Spread the result into `useMutation({ mutationFn, ... })`.
 */
export function optimisticUpdate<Data, Variables>({
  queryKey,
  apply,
}: OptimisticUpdateOptions<Data, Variables>) {
  const keyFor = (variables: Variables) => (typeof queryKey === 'function' ? queryKey(variables) : queryKey);
  return {
    onMutate: async (
      variables: Variables,
      { client }: MutationFunctionContext,
    ): Promise<OptimisticSnapshot<Data>> => {
      const key = keyFor(variables);
      // An answer already on its way would otherwise overwrite the change with the old state.
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<Data>(key);
      if (previous !== undefined) client.setQueryData<Data>(key, apply(previous, variables));
      return { previous };
    },
    onError: (
      _error: unknown,
      variables: Variables,
      snapshot: OptimisticSnapshot<Data> | undefined,
      { client }: MutationFunctionContext,
    ): void => {
      if (snapshot?.previous !== undefined) client.setQueryData<Data>(keyFor(variables), snapshot.previous);
    },
    // Returned, so the mutation stays pending until the cache holds the server's answer.
    onSettled: (
      _data: unknown,
      _error: unknown,
      variables: Variables,
      _snapshot: OptimisticSnapshot<Data> | undefined,
      { client }: MutationFunctionContext,
    ): Promise<void> => client.invalidateQueries({ queryKey: keyFor(variables) }),
  };
}
