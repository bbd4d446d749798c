import * as RadixDialog from '@radix-ui/react-dialog';
import { VisuallyHidden } from '@radix-ui/react-visually-hidden';
import { Command } from 'cmdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { projectsQueryOptions } from '../../features/projects/api/list-projects.ts';
import { taskByKeyQueryOptions } from '../../features/tasks/api/get-task-by-key.ts';
import { workspaceTasksQueryOptions } from '../../features/tasks/api/list-workspace-tasks.ts';
import { describeError } from '../../lib/api/api-error.ts';
import { parseTaskKey } from './task-key.ts';
import styles from './palette.module.css';

/** The few best matches are enough to jump to; the board's filters are for browsing. */
const SEARCH_RESULTS = 8;

export interface PaletteAction {
  id: string;
  label: string;
  /** Shown at the right: the shortcut that does the same. */
  shortcut?: string;
  run: () => void;
}

interface CommandPaletteProps {
  slug: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  actions: readonly PaletteAction[];
  openTask: (taskKey: string) => void;
  openProject: (projectKey: string) => void;
}

/** Waits until typing pauses, so a search runs once per word rather than once per letter. */
function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * `Ctrl/⌘ K`: jump to a task by key (`WEB-12`) or title, to a project, or run an action. cmdk lists and
 * moves through the results; the Radix dialog traps focus and closes on Esc.
 */
export function CommandPalette({
  slug,
  open,
  onOpenChange,
  actions,
  openTask,
  openProject,
}: CommandPaletteProps) {
  const [text, setText] = useState('');
  const query = useDebounced(text.trim(), 200);
  const typedKey = parseTaskKey(text);
  const byKey = useQuery({
    ...taskByKeyQueryOptions(slug, typedKey ?? ''),
    enabled: open && typedKey !== null,
  });
  const searched = open && query.length > 1 && !typedKey ? query : '';
  const search = useQuery({
    ...workspaceTasksQueryOptions(slug, { q: searched, limit: SEARCH_RESULTS, sort: '-updated_at' }),
    enabled: searched.length > 0,
    placeholderData: keepPreviousData,
  });
  const projects = useQuery({ ...projectsQueryOptions(slug), enabled: open });

  const lower = text.trim().toLowerCase();
  const matches = (label: string) => label.toLowerCase().includes(lower);
  const shownProjects = (projects.data ?? []).filter(
    (project) => project.archived_at === null && (matches(project.name) || matches(project.key)),
  );
  const shownActions = actions.filter((action) => matches(action.label));
  const run = (work: () => void) => {
    onOpenChange(false);
    setText('');
    work();
  };

  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content className={styles.dialog} aria-describedby={undefined}>
          <VisuallyHidden>
            <RadixDialog.Title>Command palette</RadixDialog.Title>
          </VisuallyHidden>
          <Command label="Command palette" shouldFilter={false} className={styles.command} loop>
            <Command.Input
              className={styles.input}
              value={text}
              onValueChange={setText}
              placeholder="Type a task key or title, a project, or a command…"
            />
            <Command.List className={styles.list}>
              <Command.Empty className={styles.empty}>
                {search.isFetching || byKey.isFetching ? 'Searching…' : 'Nothing matches.'}
              </Command.Empty>
              {typedKey && byKey.data && (
                <Command.Group heading="Task" className={styles.group}>
                  <Command.Item
                    value={`key:${byKey.data.key}`}
                    className={styles.item}
                    onSelect={() => run(() => openTask(byKey.data.key))}
                  >
                    <span className={styles.key}>{byKey.data.key}</span>
                    <span className={styles.label}>{byKey.data.title}</span>
                  </Command.Item>
                </Command.Group>
              )}
              {typedKey && byKey.error && (
                <p className={styles.note} role="status">
                  {describeError(byKey.error)}
                </p>
              )}
              {(search.data?.data.length ?? 0) > 0 && (
                <Command.Group heading="Tasks" className={styles.group}>
                  {search.data?.data.map((task) => (
                    <Command.Item
                      key={task.id}
                      value={`task:${task.key}`}
                      className={styles.item}
                      onSelect={() => run(() => openTask(task.key))}
                    >
                      <span className={styles.key}>{task.key}</span>
                      <span className={styles.label}>{task.title}</span>
                    </Command.Item>
                  ))}
                </Command.Group>
              )}
              {search.error && (
                <p className={styles.note} role="status">
                  {describeError(search.error)}
                </p>
              )}
              {shownProjects.length > 0 && (
                <Command.Group heading="Projects" className={styles.group}>
                  {shownProjects.map((project) => (
                    <Command.Item
                      key={project.id}
                      value={`project:${project.key}`}
                      className={styles.item}
                      onSelect={() => run(() => openProject(project.key))}
                    >
                      <span className={styles.key}>{project.key}</span>
                      <span className={styles.label}>{project.name}</span>
                    </Command.Item>
                  ))}
                </Command.Group>
              )}
              {shownActions.length > 0 && (
                <Command.Group heading="Actions" className={styles.group}>
                  {shownActions.map((action) => (
                    <Command.Item
                      key={action.id}
                      value={`action:${action.id}`}
                      className={styles.item}
                      onSelect={() => run(action.run)}
                    >
                      <span className={styles.label}>{action.label}</span>
                      {action.shortcut && <kbd className={styles.kbd}>{action.shortcut}</kbd>}
                    </Command.Item>
                  ))}
                </Command.Group>
              )}
            </Command.List>
          </Command>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
