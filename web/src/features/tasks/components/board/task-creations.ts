/** A title typed into a column's quick-add that is not a card of the board yet. */
export interface TaskCreation {
  /** Also its `Idempotency-Key`: sent again, it is the same creation, never a second task. */
  readonly id: string;
  readonly title: string;
  readonly state: 'saving' | 'failed';
  /** Why it was not saved, in the API's words, once it failed. */
  readonly reason?: string;
  /**
   * The column's tasks of the same title when it was submitted: any other task of that title showing in
   * the column is (almost surely) this one, read by the board before its own answer came (decision 0036).
   */
  readonly namesakes: readonly string[];
}

const NONE: readonly TaskCreation[] = [];

/** The column a creation is for: one quick-add's queue. */
export function creationColumn(slug: string, projectKey: string, status: string): string {
  return `${slug}/${projectKey}/${status}`;
}

/**
 * The creations of every column, in the order they were made, until each is saved (then its card is the
 * task's, from the cache) or discarded. Outside React state, so that creations go on and stay shown when
 * the quick-add closes; read with `useSyncExternalStore` (`subscribe`, `in`). Each change makes a new list
 * for its column only, so a column draws again only for its own creations.
 */
export function createTaskCreations(newId: () => string = () => crypto.randomUUID()) {
  const columns = new Map<string, readonly TaskCreation[]>();
  const listeners = new Set<() => void>();

  const update = (column: string, change: (list: readonly TaskCreation[]) => readonly TaskCreation[]) => {
    const list = change(columns.get(column) ?? NONE);
    if (list.length > 0) columns.set(column, list);
    else columns.delete(column);
    for (const listener of listeners) listener();
  };
  const find = (column: string, id: string) => columns.get(column)?.find((creation) => creation.id === id);
  const without = (id: string) => (list: readonly TaskCreation[]) => list.filter((c) => c.id !== id);

  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The column's creations, oldest first; the same list until one of them changes. */
    in: (column: string): readonly TaskCreation[] => columns.get(column) ?? NONE,
    /** A new title, saving from now on, after the column's others. */
    add(column: string, title: string, namesakes: readonly string[] = []): TaskCreation {
      const creation: TaskCreation = { id: newId(), title, state: 'saving', namesakes };
      update(column, (list) => [...list, creation]);
      return creation;
    },
    /** The API refused it, or could not be reached: it stays, with the reason, for a retry. */
    fail(column: string, id: string, reason: string): void {
      update(column, (list) =>
        list.map((creation) => (creation.id === id ? { ...creation, state: 'failed', reason } : creation)),
      );
    },
    /**
     * A failed creation sent again, under the same id: saving, after the column's others (it is sent after
     * them). Undefined when there is no such creation, or it is not failed.
     */
    retry(column: string, id: string): TaskCreation | undefined {
      const failed = find(column, id);
      if (failed?.state !== 'failed') return undefined;
      const creation: TaskCreation = {
        id,
        title: failed.title,
        state: 'saving',
        namesakes: failed.namesakes,
      };
      update(column, (list) => [...without(id)(list), creation]);
      return creation;
    },
    /** Saved (its card is the task's now) or discarded. */
    remove(column: string, id: string): void {
      if (find(column, id)) update(column, without(id));
    },
  };
}

export type TaskCreations = ReturnType<typeof createTaskCreations>;

/** The app's creations, shared by each column's quick-add and its cards. */
export const taskCreations = createTaskCreations();
