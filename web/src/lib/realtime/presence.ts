/** What each person on a workspace's channel tells the others: who they are and where they are. */
export interface PresenceState {
  user_id: string;
  display_name: string;
  /** The board they have open (a project key), or null elsewhere in the workspace. */
  project_key: string | null;
  /** The task they have open (`WEB-12`), or null. */
  task_key: string | null;
}

/** Where this person is, as the screens say it. */
export type PresencePlace = Pick<PresenceState, 'project_key' | 'task_key'>;

export const NOWHERE: PresencePlace = { project_key: null, task_key: null };

type PresenceMetas = Readonly<Record<string, readonly unknown[]>>;

/**
 * One entry per person from realtime-js's `presenceState()` (`{ <key>: [meta, …] }`, a meta per tab they
 * have open): a tab with a task open before one without, else the latest tab. Sorted by name.
 */
export function peopleOf(state: PresenceMetas, projectKey?: string): PresenceState[] {
  const people: PresenceState[] = [];
  for (const metas of Object.values(state)) {
    const tabs = metas
      .map(toPresenceState)
      .filter((tab): tab is PresenceState => tab !== null)
      .filter((tab) => projectKey === undefined || tab.project_key === projectKey)
      .reverse();
    const chosen = tabs.find((tab) => tab.task_key !== null) ?? tabs[0];
    if (chosen) people.push(chosen);
  }
  return people.sort(
    (a, b) => a.display_name.localeCompare(b.display_name) || a.user_id.localeCompare(b.user_id),
  );
}

function toPresenceState(value: unknown): PresenceState | null {
  if (typeof value !== 'object' || value === null) return null;
  const meta = value as Record<string, unknown>;
  const { user_id: userId, display_name: name, project_key: projectKey, task_key: taskKey } = meta;
  if (typeof userId !== 'string' || typeof name !== 'string') return null;
  return {
    user_id: userId,
    display_name: name,
    project_key: typeof projectKey === 'string' ? projectKey : null,
    task_key: typeof taskKey === 'string' ? taskKey : null,
  };
}
