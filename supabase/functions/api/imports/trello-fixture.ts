/**
 * A Trello board export as Trello writes it, built to size for tests and benchmarks: deterministic
 * (the same options give the same text), with open and closed lists, named and unnamed labels, members
 * (some with an e-mail), checklists, comments, due dates and closed cards.
 */

export interface TrelloFixtureOptions {
  cards: number;
  lists?: number;
  labels?: number;
  members?: number;
}

const LIST_NAMES = ['Backlog', 'To do', 'Doing', 'Review', 'Done', 'Ideas', 'Blocked', 'Shipped'];
const COLORS = [
  'green',
  'yellow',
  'orange',
  'red',
  'purple',
  'blue',
  'sky',
  'lime',
  'pink',
  'black',
  'green_dark',
];

/** A 24-hex-digit Trello id, from a kind and a number. */
export const trelloId = (kind: number, n: number): string =>
  kind.toString(16).padStart(8, '0') + n.toString(16).padStart(16, '0');

const BOARD_ID = trelloId(0xb0a4d, 1);

/** A small deterministic pseudo-random sequence (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function trelloBoardFixture(options: TrelloFixtureOptions): Record<string, unknown> {
  const next = random(options.cards * 31 + 7);
  const pick = (count: number): number => Math.floor(next() * count);
  const listCount = options.lists ?? 6;
  const labelCount = options.labels ?? 12;
  const memberCount = options.members ?? 5;

  const lists = Array.from({ length: listCount }, (_, n) => ({
    id: trelloId(0x1157, n),
    name: LIST_NAMES[n % LIST_NAMES.length] + (n >= LIST_NAMES.length ? ` ${n}` : ''),
    closed: n === listCount - 1 && listCount > 2,
    // Not in array order: the reader sorts by pos.
    pos: 16384 * (listCount - n),
    idBoard: BOARD_ID,
  }));
  const labels = Array.from({ length: labelCount }, (_, n) => ({
    id: trelloId(0x1abe1, n),
    idBoard: BOARD_ID,
    name: n % 5 === 4 ? '' : `Label ${n}`,
    color: n % 7 === 6 ? null : COLORS[n % COLORS.length],
  }));
  const members = Array.from({ length: memberCount }, (_, n) => ({
    id: trelloId(0x3e3be, n),
    fullName: `Member ${n}`,
    username: `member${n}`,
    ...(n % 2 === 0 ? { email: `member${n}@example.com` } : {}),
  }));

  const cards: Record<string, unknown>[] = [];
  const checklists: Record<string, unknown>[] = [];
  const actions: Record<string, unknown>[] = [];
  for (let n = 0; n < options.cards; n += 1) {
    const id = trelloId(0xca4d, n);
    const checklistIds: string[] = [];
    if (n % 4 === 0) {
      const checklistId = trelloId(0xc4ec, n);
      checklistIds.push(checklistId);
      checklists.push({
        id: checklistId,
        idCard: id,
        idBoard: BOARD_ID,
        name: `Steps for card ${n}`,
        pos: 16384,
        checkItems: Array.from({ length: 1 + (n % 5) }, (_, i) => ({
          id: trelloId(0x17e3, n * 8 + i),
          idChecklist: checklistId,
          name: `Step ${i + 1}`,
          state: i % 2 === 0 ? 'complete' : 'incomplete',
          pos: 16384 * (i + 1),
        })),
      });
    }
    for (let c = 0; c < n % 3; c += 1) {
      const member = members[pick(memberCount)];
      actions.push({
        id: trelloId(0xac7, n * 4 + c),
        idMemberCreator: member?.id,
        type: 'commentCard',
        date: new Date(Date.UTC(2026, 0, 1) + (n * 4 + c) * 60_000).toISOString(),
        data: {
          text: `Comment ${c + 1} on card ${n}`,
          card: { id, name: `Card ${n}` },
          board: { id: BOARD_ID },
        },
        memberCreator: { id: member?.id, fullName: member?.fullName, username: member?.username },
      });
    }
    cards.push({
      id,
      idBoard: BOARD_ID,
      name: `Card ${n}: ${['Fix', 'Write', 'Ship', 'Check'][n % 4]} the ${['login', 'export', 'board', 'invite'][pick(4)]}`,
      desc: n % 3 === 0 ? `Details of card ${n}.\n\nWith **Markdown**.` : '',
      idList: lists[pick(listCount)]?.id,
      closed: n % 17 === 0,
      pos: 65536 * (n + 1) - pick(1000),
      due: n % 5 === 0 ? new Date(Date.UTC(2026, 11, 1 + (n % 28), 15)).toISOString() : null,
      idLabels: labels.filter((_, l) => (n + l) % 4 === 0).map((label) => label.id),
      idMembers: n % 3 === 0 ? [members[pick(memberCount)]?.id] : [],
      idChecklists: checklistIds,
    });
  }
  // Trello lists actions newest first.
  actions.reverse();

  return {
    id: BOARD_ID,
    name: 'Product roadmap',
    desc: 'Everything we plan to build.',
    closed: false,
    url: `https://trello.com/b/${BOARD_ID.slice(0, 8)}/product-roadmap`,
    prefs: { permissionLevel: 'private', background: 'blue' },
    labelNames: {},
    actions,
    cards,
    labels,
    lists,
    members,
    checklists,
  };
}

/** The fixture as the file Trello gives. */
export const trelloBoardFixtureText = (options: TrelloFixtureOptions): string =>
  JSON.stringify(trelloBoardFixture(options));
