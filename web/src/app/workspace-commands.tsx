import { getRouteApi, useParams } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useState } from 'react';
import { isTyping } from '../lib/keyboard/is-typing.ts';

// Loaded when first opened: a screen shows without the palette's and the dialog's code.
const WorkspacePalette = lazy(() =>
  import('./palette/workspace-palette.tsx').then((module) => ({ default: module.WorkspacePalette })),
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

  return (
    <Suspense fallback={null}>
      {paletteUsed && (
        <WorkspacePalette
          slug={slug}
          projectKey={projectKey}
          open={paletteOpen}
          onOpenChange={setPaletteOpen}
          onShowShortcuts={() => setShortcutsOpen(true)}
        />
      )}
      {shortcutsUsed && <ShortcutsDialog open={shortcutsOpen} onOpenChange={setShortcutsOpen} />}
    </Suspense>
  );
}
