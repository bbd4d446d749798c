import { getRouteApi, useNavigate, useParams } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useState } from 'react';
import { paths } from '../config/paths.ts';
import type { PaletteAction } from './palette/command-palette.tsx';
import { isTyping } from '../lib/keyboard/is-typing.ts';

// Loaded when first opened: a screen shows without the palette's and the dialog's code.
const CommandPalette = lazy(() =>
  import('./palette/command-palette.tsx').then((module) => ({ default: module.CommandPalette })),
);
const ShortcutsDialog = lazy(() =>
  import('./palette/shortcuts-dialog.tsx').then((module) => ({ default: module.ShortcutsDialog })),
);

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
  // Once opened, each stays mounted, so that closing it returns focus as Radix does.
  const [paletteUsed, setPaletteUsed] = useState(false);
  const [shortcutsUsed, setShortcutsUsed] = useState(false);
  if (paletteOpen && !paletteUsed) setPaletteUsed(true);
  if (shortcutsOpen && !shortcutsUsed) setShortcutsUsed(true);

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
    <Suspense fallback={null}>
      {paletteUsed && (
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
      )}
      {shortcutsUsed && <ShortcutsDialog open={shortcutsOpen} onOpenChange={setShortcutsOpen} />}
    </Suspense>
  );
}
