import { useEffect } from 'react';
import { toast } from '../../components/ui/toast.ts';
import { filtersHide, type BoardSearch } from './board-search.ts';
import { createdTasks } from './created-tasks.ts';
import { projectKeyOf } from './task-key.ts';
import { useOpenTask } from './use-open-task.ts';

/** How long the notice of a hidden task stays, with its Open. */
const NOTICE_MS = 10_000;

interface BoardOfCreations {
  slug: string;
  projectKey: string;
  /** The board's filters in the address. */
  search: BoardSearch;
  /** Who `assignee=me` is. */
  meId: string | undefined;
}

/**
 * On a filtered board, a task just created that the filters leave out would vanish as its saving card
 * goes: say so, with a way to open it (its panel over the board, the filters kept).
 */
export function useHiddenCreations({ slug, projectKey, search, meId }: BoardOfCreations): void {
  const { open } = useOpenTask();
  useEffect(
    () =>
      createdTasks.listen((task) => {
        if (projectKeyOf(task.key) !== projectKey || !filtersHide(search, task, meId)) return;
        toast.success(`${task.key} created — hidden by the current filter.`, {
          duration: NOTICE_MS,
          action: { label: 'Open', onClick: () => open(slug, task.key) },
        });
      }),
    [slug, projectKey, search, meId, open],
  );
}
