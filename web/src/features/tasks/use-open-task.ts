import { useNavigate, useRouter } from '@tanstack/react-router';
import { useMemo } from 'react';
import { paths } from '../../config/paths.ts';
import { projectKeyOf } from './task-key.ts';

/** Where a task key's number is: `12` of `WEB-12`. */
const numberOf = (taskKey: string): number => Number(taskKey.slice(taskKey.lastIndexOf('-') + 1));

/**
 * Opening a task's panel over its board from outside the board's own links (a toast's action): the
 * board's filters stay in the address. `onBoard` tells whether the person is still on that task's board.
 */
export function useOpenTask() {
  const navigate = useNavigate();
  const router = useRouter();
  return useMemo(
    () => ({
      open: (slug: string, taskKey: string) =>
        void navigate({
          to: paths.task,
          params: { slug, key: projectKeyOf(taskKey), number: numberOf(taskKey) },
          search: (previous) => previous,
        }),
      onBoard: (slug: string, taskKey: string) =>
        router.state.location.pathname.replace(/\/$/, '') ===
        `/w/${encodeURIComponent(slug)}/p/${encodeURIComponent(projectKeyOf(taskKey))}`,
    }),
    [navigate, router],
  );
}
