/** Where `/` goes: the workspace used last in this browser, remembered per browser in localStorage. */

const STORAGE_KEY = 'tasklane.last-workspace';

/** The workspace to open: the last one used if the person is still a member, else their first, else none. */
export function homeWorkspaceSlug(
  workspaces: readonly { slug: string }[],
  lastSlug: string | null,
): string | null {
  const last = workspaces.find((workspace) => workspace.slug === lastSlug);
  return (last ?? workspaces[0])?.slug ?? null;
}

export function rememberWorkspace(slug: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, slug);
  } catch {
    // Storage can be off (private windows, quotas): `/` then opens the first workspace instead.
  }
}

export function lastWorkspace(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
