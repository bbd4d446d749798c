import { Outlet, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
} from 'react';
import { Button } from '../../components/ui/button.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { useLabels } from '../../features/labels/api/list-labels.ts';
import { useMembers } from '../../features/members/api/list-members.ts';
import { useProject } from '../../features/projects/api/get-project.ts';
import { filtersOf, isFiltered, type BoardSearch } from '../../features/tasks/board-search.ts';
import { Board } from '../../features/tasks/components/board/board.tsx';
import { boardPeople } from '../../features/tasks/components/board/board-people.ts';
import { BoardSkeleton } from '../../features/tasks/components/board/board-skeleton.tsx';
import { FilterBar } from '../../features/tasks/components/board/filter-bar.tsx';
import { isTyping } from '../../lib/keyboard/is-typing.ts';
import { whenQuiet } from '../../lib/scheduling/when-quiet.ts';
import { ProjectHeader } from '../../features/tasks/components/board/project-header.tsx';
import { useHiddenCreations } from '../../features/tasks/use-hidden-creations.ts';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';
import { useMe } from '../../features/account/api/get-me.ts';
import { useSharePlace } from '../../lib/realtime/live-store.ts';
import { loadRealtimeClient } from '../../lib/realtime/realtime-client.ts';
import { ApiError, describeError } from '../../lib/api/api-error.ts';
import { useTaskOpenedOnItsOwn } from '../task-view-mode.ts';
import { RoutePending } from './route-pending.tsx';
import styles from './board.module.css';

// Shown only for an unknown project: not part of a board's first load.
const NotFoundScreen = lazy(() =>
  import('./not-found.tsx').then((module) => ({ default: module.NotFoundScreen })),
);

// Nothing to show before realtime has joined: loaded with the realtime client, after the first paint.
const BoardLive = lazy(() =>
  import('../../features/presence/components/board-live.tsx').then((module) => ({
    default: module.BoardLive,
  })),
);

// The list view is not the board's first paint: its code loads when it is chosen (decision 0029).
const TaskTable = lazy(() =>
  import('../../features/tasks/components/board/task-table.tsx').then((module) => ({
    default: module.TaskTable,
  })),
);

/** `/w/:slug/p/:key`: the project's board (or its list view); the task panel opens over it. */
export function BoardScreen() {
  const { slug, key } = useParams({ from: '/signed-in/w/$slug/p/$key' });
  const search = useSearch({ from: '/signed-in/w/$slug/p/$key' });
  const navigate = useNavigate({ from: '/w/$slug/p/$key' });
  const workspace = useWorkspace(slug);
  const project = useProject(slug, key);
  const members = useMembers(slug);
  const labels = useLabels(slug);
  const me = useMe();
  // The others see this person on this board (the task panel adds which task).
  useSharePlace('project_key', project.data?.key ?? null);
  // A task created here that the filters hide says so.
  useHiddenCreations({ slug, projectKey: project.data?.key ?? key, search, meId: me.data?.id });
  const searchRef = useRef<HTMLInputElement>(null);
  // A task opened on its own is a page, not a panel: there is no board under it.
  const taskOnItsOwn = useTaskOpenedOnItsOwn();

  const onSearchChange = useCallback(
    (next: BoardSearch, options?: { replace: boolean }) =>
      void navigate({ search: next, replace: options?.replace ?? false }),
    [navigate],
  );

  // `/` focuses the search, unless the person is typing.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.metaKey || event.ctrlKey || isTyping(event.target)) return;
      event.preventDefault();
      searchRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // The task panel's code, evaluated while nobody is doing anything: not on a card's hover as a drag
  // begins, when evaluating it takes the main thread from the drag (bench row i4).
  useEffect(() => whenQuiet(() => void import('./task.tsx'), { quietMs: 300 }), []);

  const memberList = useMemo(
    () =>
      (members.data ?? []).map((m) => ({
        id: m.user_id,
        name: m.display_name || m.email,
        avatarUrl: m.avatar_url,
      })),
    [members.data],
  );
  const labelList = useMemo(() => labels.data ?? [], [labels.data]);
  const people = useMemo(() => boardPeople(memberList, labelList), [memberList, labelList]);
  const { assignee, label, priority, q } = filtersOf(search);
  const board = useMemo(
    () => ({ slug, key, assignee, label, priority, q }),
    [slug, key, assignee, label, priority, q],
  );

  if (taskOnItsOwn) return <Outlet />;
  const failed = project.error ?? workspace.error;
  if (failed instanceof ApiError && failed.status === 404) {
    return (
      <Suspense fallback={<RoutePending />}>
        <NotFoundScreen />
      </Suspense>
    );
  }
  if (failed) {
    return (
      <section className={styles.error} role="alert" aria-labelledby="board-error-title">
        <h1 id="board-error-title" className={styles.errorTitle}>
          The board could not be loaded
        </h1>
        <p className="muted">{describeError(failed)}</p>
        <Button
          variant="primary"
          onClick={() => {
            void project.refetch();
            void workspace.refetch();
          }}
        >
          Retry
        </Button>
      </section>
    );
  }
  if (!project.data || !workspace.data) return <BoardSkeleton />;

  const archived = project.data.archived;
  const canEdit = workspace.data.role !== 'viewer' && !archived;
  const view = search.view ?? 'board';

  return (
    <div className={styles.screen}>
      <title>{`${project.data.name} · Tasklane`}</title>
      <ProjectHeader
        name={project.data.name}
        projectKey={project.data.key}
        view={view}
        onViewChange={(next) => onSearchChange({ ...search, view: next === 'board' ? undefined : next })}
        aside={<LiveAside projectKey={project.data.key} meId={me.data?.id} members={memberList} />}
      />
      {archived && (
        <p className={styles.archived} role="status">
          This project is archived, so its tasks are read-only.
        </p>
      )}
      <FilterBar
        ref={searchRef}
        search={search}
        onSearchChange={onSearchChange}
        members={memberList}
        labels={labelList}
      />
      {view === 'board' ? (
        <Board board={board} people={people} canEdit={canEdit} filtered={isFiltered(search)} />
      ) : (
        <Suspense fallback={<LoadingLine>Loading the list…</LoadingLine>}>
          <TaskTable
            board={board}
            people={people}
            sort={search.sort ?? 'position'}
            canEdit={canEdit}
            onSortChange={(sort) =>
              onSearchChange({ ...search, sort: sort === 'position' ? undefined : sort })
            }
          />
        </Suspense>
      )}
      <Outlet />
    </div>
  );
}

/** The connection's state and who else is here, once the realtime client has loaded. */
function LiveAside({ projectKey, meId, members }: ComponentProps<typeof BoardLive>) {
  const [live, setLive] = useState(false);
  useEffect(() => {
    let left = false;
    void loadRealtimeClient().then(() => {
      if (!left) setLive(true);
    });
    return () => {
      left = true;
    };
  }, []);
  if (!live) return null;
  return (
    <Suspense fallback={null}>
      <BoardLive projectKey={projectKey} meId={meId} members={members} />
    </Suspense>
  );
}
