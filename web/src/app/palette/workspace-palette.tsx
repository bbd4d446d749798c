import { useNavigate } from '@tanstack/react-router';
import { paths } from '../../config/paths.ts';
import { CommandPalette, type PaletteAction } from './command-palette.tsx';

interface WorkspacePaletteProps {
  slug: string;
  /** The project of the board (or task) on screen, if any. */
  projectKey: string | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onShowShortcuts: () => void;
}

/** The command palette of a workspace, with its actions: loaded when first opened (workspace-commands.tsx). */
export function WorkspacePalette({
  slug,
  projectKey,
  open,
  onOpenChange,
  onShowShortcuts,
}: WorkspacePaletteProps) {
  const navigate = useNavigate();
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
    { id: 'shortcuts', label: 'Show keyboard shortcuts', shortcut: '?', run: onShowShortcuts },
  ];

  return (
    <CommandPalette
      slug={slug}
      open={open}
      onOpenChange={onOpenChange}
      actions={actions}
      openTask={(taskKey) => {
        const [key = '', number = ''] = taskKey.split('-');
        void navigate({ to: paths.task, params: { slug, key, number: Number(number) } });
      }}
      openProject={(key) => void toBoard(key)}
    />
  );
}
