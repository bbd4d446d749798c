import { useCallback, useState } from 'react';
import { type TaskStatus } from '../task-meta/status.tsx';
import { TASK_STATUSES } from '@shared/vocabulary/spec-values.ts';
import { CLOSED_TASK_STATUSES } from '../../task-status-groups.ts';

/** Finished work stays out of the way until asked for, with its count in view (as Linear does). */
const COLLAPSED_BY_DEFAULT: readonly TaskStatus[] = CLOSED_TASK_STATUSES;

const storageKey = (slug: string, projectKey: string) => `tasklane.collapsed-columns.${slug}.${projectKey}`;

/** The columns a person has folded on a project's board, remembered per browser (nothing secret). */
export function useCollapsedColumns(slug: string, projectKey: string) {
  const key = storageKey(slug, projectKey);
  const [state, setState] = useState(() => ({ key, collapsed: readCollapsed(key) }));
  // Another project's board in the same component: take its columns.
  const collapsed = state.key === key ? state.collapsed : readCollapsed(key);
  if (state.key !== key) setState({ key, collapsed });

  const setCollapsed = useCallback(
    (status: TaskStatus, fold: boolean) =>
      setState((current) => {
        const next = new Set(current.collapsed);
        if (fold) next.add(status);
        else next.delete(status);
        writeCollapsed(current.key, next);
        return { key: current.key, collapsed: next };
      }),
    [],
  );
  return { collapsed, setCollapsed };
}

function readCollapsed(key: string): ReadonlySet<TaskStatus> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    if (Array.isArray(stored)) return new Set(TASK_STATUSES.filter((status) => stored.includes(status)));
  } catch {
    // Unreadable (private mode, or not ours): the default.
  }
  return new Set(COLLAPSED_BY_DEFAULT);
}

function writeCollapsed(key: string, collapsed: ReadonlySet<TaskStatus>): void {
  try {
    localStorage.setItem(key, JSON.stringify([...collapsed]));
  } catch {
    // Storage full or refused: the fold holds until the page is left.
  }
}
