import { getRouteApi, useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { paths } from '../config/paths.ts';
import { CommandPalette, type PaletteAction } from './palette/command-palette.tsx';
import { ShortcutsDialog } from './palette/shortcuts-dialog.tsx';
import { isTyping } from '../lib/keyboard/is-typing.ts';

const workspaceRoute = getRouteApi('/signed-in/w/$slug');

/**
 * The workspace's keyboard layer: `Ctrl/⌘ K` opens the command palette, `?` the list of shortcuts.
 * Mounted once by the workspace layout.
 */
export function WorkspaceCommands() {
  const { slug } = workspaceRoute.useParams();
  // The project of the board (or task) on screen, if any.
  const projectKey = useParams({ strict: false, select: (params) => params.key });
  const navigate = useNavigate();
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'k' && (event.metaKey || event.ctrlKey) && !event.altKey) {
        event.preventDefault();
        setShortcutsOpen(false);
        setPaletteOpen((open) => !open);
      } else if (event.key === '?' && !isTyping(event.target) && !document.querySelector('[role="dialog"]')) {
        event.preventDefault();
        setShortcutsOpen(true);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const toBoard = (key: string) => navigate({ to: paths.board, params: { slug, key } });
  const actions: PaletteAction[] = [
    ...(projectKey
      ? [
          {
            id: 'new-task',
            label: 'New task',
            shortcut: 'c',
            // The board's own `c` shortcut opens its quick-add; the palette presses it once the board shows.
            run: () =>
              void toBoard(projectKey).then(() =>
                document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'c', bubbles: true })),
              ),
          },
          {
            id: 'toggle-view',
            label: 'Toggle board / list view',
            run: () =>
              void navigate({
                to: paths.board,
                params: { slug, key: projectKey },
                search: (previous) => ({
                  ...previous,
                  view: previous.view === 'list' ? undefined : ('list' as const),
                }),
              }),
          },
        ]
      : []),
    {
      id: 'home',
      label: 'Go to workspace home',
      run: () => void navigate({ to: paths.workspace, params: { slug } }),
    },
    { id: 'shortcuts', label: 'Show keyboard shortcuts', shortcut: '?', run: () => setShortcutsOpen(true) },
  ];

  return (
    <>
      <CommandPalette
        slug={slug}
        open={paletteOpen}
        onOpenChange={setPaletteOpen}
        actions={actions}
        openTask={(taskKey) => {
          const [key = '', number = ''] = taskKey.split('-');
          void navigate({ to: paths.task, params: { slug, key, number: Number(number) } });
        }}
        openProject={(key) => void toBoard(key)}
      />
      <ShortcutsDialog open={shortcutsOpen} onOpenChange={setShortcutsOpen} />
    </>
  );
}
