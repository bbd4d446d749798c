/** Who and what the cards name, looked up by id: the workspace's members and labels, passed in by the route. */
export interface BoardPerson {
  id: string;
  name: string;
  /** Their picture's signed URL (`avatar_url`), if they have one. */
  avatarUrl?: string | null;
}

export interface BoardLabel {
  id: string;
  name: string;
  color: string;
}

export interface BoardPeople {
  members: ReadonlyMap<string, BoardPerson>;
  labels: ReadonlyMap<string, BoardLabel>;
}

export function boardPeople(members: readonly BoardPerson[], labels: readonly BoardLabel[]): BoardPeople {
  return {
    members: new Map(members.map((member) => [member.id, member])),
    labels: new Map(labels.map((label) => [label.id, label])),
  };
}
