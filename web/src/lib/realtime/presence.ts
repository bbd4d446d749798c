/** Someone on a workspace's channel, as the screens show them: who (from the member list) and where. */
export interface PresenceState {
  user_id: string;
  display_name: string;
  /** The board they have open (a project key), or null elsewhere in the workspace. */
  project_key: string | null;
  /** The task they have open (`WEB-12`), or null. */
  task_key: string | null;
}

/** Where this person is, as the screens say it: all a tab tracks on the channel. */
export type PresencePlace = Pick<PresenceState, 'project_key' | 'task_key'>;

export const NOWHERE: PresencePlace = { project_key: null, task_key: null };

/** A member of the workspace, as its member list names them. */
export interface PresenceMember {
  id: string;
  name: string;
}

type PresenceMetas = Readonly<Record<string, readonly unknown[]>>;

/**
 * One entry per person from realtime-js's `presenceState()` (`{ <key>: [meta, …] }`, a meta per tab they
 * have open): a tab with a task open before one without, else the latest tab. Sorted by name.
 *
 * Anyone on the channel tracks what they like, under the key they like: a person here is a key that is
 * a current member's user id, named as the member list names them. A key of no member (someone removed,
 * or made up) shows nobody, and nothing but the place is read from a meta.
 */
export function peopleOf(
  state: PresenceMetas,
  members: readonly PresenceMember[],
  projectKey?: string,
): PresenceState[] {
  const names = new Map(members.map((member) => [member.id, member.name]));
  const people: PresenceState[] = [];
  for (const [key, metas] of Object.entries(state)) {
    const name = names.get(key);
    if (name === undefined) continue;
    const tabs = metas
      .map(placeOf)
      .filter((tab): tab is PresencePlace => tab !== null)
      .filter((tab) => projectKey === undefined || tab.project_key === projectKey)
      .reverse();
    const chosen = tabs.find((tab) => tab.task_key !== null) ?? tabs[0];
    if (chosen) people.push({ user_id: key, display_name: name, ...chosen });
  }
  return people.sort(
    (a, b) => a.display_name.localeCompare(b.display_name) || a.user_id.localeCompare(b.user_id),
  );
}

function placeOf(value: unknown): PresencePlace | null {
  if (typeof value !== 'object' || value === null) return null;
  const { project_key: projectKey, task_key: taskKey } = value as Record<string, unknown>;
  return {
    project_key: typeof projectKey === 'string' ? projectKey : null,
    task_key: typeof taskKey === 'string' ? taskKey : null,
  };
}
