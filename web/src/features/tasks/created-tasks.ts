import type { Task } from './api/list-tasks.ts';

type Listener = (task: Task) => void;

const listeners = new Set<Listener>();

/**
 * The tasks the quick-add has just created, told to whoever listens (the board, which knows its filters
 * and says so when they hide one): outside React, since a creation may end after its quick-add closed.
 */
export const createdTasks = {
  tell(task: Task): void {
    for (const listener of listeners) listener(task);
  },
  /** Listens until the returned function is called. */
  listen(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
