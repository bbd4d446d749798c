import { describe, expect, it } from 'vitest';
import { readTrelloExport } from './trello-source.ts';
import { trelloBoardFixture, trelloBoardFixtureText } from './trello-fixture.ts';

const BOARD = {
  id: 'b0ard0000000000000000001',
  name: 'Launch',
  desc: 'The launch board.',
  closed: false,
  lists: [
    { id: 'list-done', name: 'Done', closed: false, pos: 3 },
    { id: 'list-todo', name: 'To do', closed: false, pos: 1 },
    { id: 'list-old', name: 'Old stuff', closed: true, pos: 0.5 },
    { id: 'list-doing', name: 'Doing', closed: false, pos: 2 },
  ],
  labels: [
    { id: 'l-bug', name: 'Bug', color: 'red' },
    { id: 'l-green', name: '', color: 'green' },
    { id: 'l-grey', name: 'Grey', color: null },
    { id: 'l-bug2', name: 'bug', color: 'blue' },
  ],
  members: [
    { id: 'm-ada', fullName: 'Ada Lovelace', username: 'ada', email: 'ada@example.com' },
    { id: 'm-bob', fullName: 'Bob Builder', username: 'bob' },
  ],
  cards: [
    {
      id: 'card-2',
      name: 'Second',
      desc: '',
      idList: 'list-todo',
      closed: false,
      pos: 200,
      due: null,
      idLabels: [],
      idMembers: ['m-bob'],
      idChecklists: [],
    },
    {
      id: 'card-1',
      name: '  First  ',
      desc: 'Do it.',
      idList: 'list-todo',
      closed: false,
      pos: 100,
      due: '2026-12-31T23:30:00.000Z',
      idLabels: ['l-bug', 'l-green', 'l-bug2'],
      idMembers: ['m-ada', 'm-bob'],
      idChecklists: ['cl-2', 'cl-1'],
    },
    {
      id: 'card-3',
      name: 'Archived one',
      desc: '',
      idList: 'list-doing',
      closed: true,
      pos: 1,
      due: '2027-01-01T01:00:00.000+02:00',
      idLabels: ['l-grey'],
      idMembers: [],
      idChecklists: [],
    },
    {
      id: 'card-4',
      name: 'In a closed list',
      desc: '',
      idList: 'list-old',
      closed: false,
      pos: 1,
      due: null,
      idLabels: [],
      idMembers: [],
      idChecklists: [],
    },
    {
      id: 'card-5',
      name: '   ',
      desc: '',
      idList: 'list-done',
      closed: false,
      pos: 1,
      due: null,
      idLabels: [],
      idMembers: [],
      idChecklists: [],
    },
  ],
  checklists: [
    {
      id: 'cl-1',
      idCard: 'card-1',
      name: 'Before',
      pos: 1,
      checkItems: [
        { id: 'i-2', name: 'Second step', state: 'incomplete', pos: 2 },
        { id: 'i-1', name: 'First step', state: 'complete', pos: 1 },
      ],
    },
    {
      id: 'cl-2',
      idCard: 'card-1',
      name: 'After',
      pos: 2,
      checkItems: [{ id: 'i-3', name: 'Tidy', state: 'incomplete', pos: 1 }],
    },
  ],
  actions: [
    {
      id: 'a-2',
      type: 'commentCard',
      date: '2026-11-02T10:00:00.000Z',
      idMemberCreator: 'm-bob',
      memberCreator: { fullName: 'Bob Builder', username: 'bob' },
      data: { text: 'Later comment', card: { id: 'card-1' } },
    },
    {
      id: 'a-1',
      type: 'commentCard',
      date: '2026-11-01T10:00:00.000Z',
      idMemberCreator: 'm-ada',
      memberCreator: { fullName: 'Ada Lovelace', username: 'ada' },
      data: { text: 'Earlier comment', card: { id: 'card-1' } },
    },
    { id: 'a-3', type: 'updateCard', date: '2026-11-03T10:00:00.000Z', data: { card: { id: 'card-1' } } },
  ],
};

describe('readTrelloExport', () => {
  const source = readTrelloExport(JSON.stringify(BOARD));
  const project = source.projects[0];

  it('reads the board as one project, open lists in pos order then closed ones, each with a suggested status', () => {
    expect(source.projects).toHaveLength(1);
    expect(project).toMatchObject({
      sourceId: 'trello:b0ard0000000000000000001',
      name: 'Launch',
      key: null,
      description: 'The launch board.',
    });
    expect(project?.columns).toEqual([
      { sourceId: 'list-todo', name: 'To do', suggestedStatus: 'todo' },
      { sourceId: 'list-doing', name: 'Doing', suggestedStatus: 'in_progress' },
      { sourceId: 'list-done', name: 'Done', suggestedStatus: 'done' },
      { sourceId: 'list-old', name: 'Old stuff', suggestedStatus: 'todo' },
    ]);
  });

  it('orders tasks by list then pos, skips a card with no title with an error, archives closed cards and cards in closed lists', () => {
    expect(project?.tasks.map((task) => [task.sourceId, task.title, task.archived])).toEqual([
      ['trello:card-1', 'First', false],
      ['trello:card-2', 'Second', false],
      ['trello:card-3', 'Archived one', true],
      ['trello:card-4', 'In a closed list', true],
    ]);
    expect(source.problems).toContainEqual({
      severity: 'error',
      location: 'cards[4].name',
      message: 'has no title: the row is skipped',
    });
  });

  it('appends checklists in pos order as Markdown task lists', () => {
    expect(project?.tasks[0]?.description).toBe(
      'Do it.\n\n### Before\n- [x] First step\n- [ ] Second step\n\n### After\n- [ ] Tidy',
    );
  });

  it('maps labels to names and hex colours, an unnamed one by its colour, the first colour of a name winning', () => {
    expect(source.labels).toEqual([
      { name: 'Bug', color: '#eb5a46' },
      { name: 'green', color: '#61bd4f' },
      { name: 'Grey', color: '#b3bac5' },
    ]);
    expect(project?.tasks[0]?.labelNames).toEqual(['Bug', 'green']);
    expect(source.problems).toContainEqual({
      severity: 'warning',
      location: 'labels[3].name',
      message: 'label "bug" has two colours, #eb5a46 and #0079bf: #eb5a46 is kept',
    });
  });

  it('reads comments oldest first with their author, the e-mail when the member has one', () => {
    expect(project?.tasks[0]?.comments).toEqual([
      {
        body: 'Earlier comment',
        authorName: 'Ada Lovelace',
        authorEmail: 'ada@example.com',
        createdAt: '2026-11-01T10:00:00.000Z',
      },
      {
        body: 'Later comment',
        authorName: 'Bob Builder',
        authorEmail: null,
        createdAt: '2026-11-02T10:00:00.000Z',
      },
    ]);
  });

  it('assigns the first member when Trello gives their e-mail, else leaves the card unassigned with a warning', () => {
    expect(project?.tasks[0]?.assigneeEmail).toBe('ada@example.com');
    expect(project?.tasks[1]?.assigneeEmail).toBeNull();
    expect(source.problems).toContainEqual({
      severity: 'warning',
      location: 'cards[0].idMembers',
      message: 'left unassigned: Trello gives no e-mail for "Bob Builder"',
    });
  });

  it('gives the due date as the UTC day', () => {
    expect(project?.tasks[0]?.dueDate).toBe('2026-12-31');
    expect(project?.tasks[2]?.dueDate).toBe('2026-12-31');
    expect(project?.tasks[1]?.dueDate).toBeNull();
  });

  it('cuts a title over 200 characters with a warning', () => {
    const long = 'x'.repeat(250);
    const board = { ...BOARD, cards: [{ ...BOARD.cards[0], name: long }] };
    const read = readTrelloExport(JSON.stringify(board));
    expect(read.projects[0]?.tasks[0]?.title).toBe('x'.repeat(200));
    expect(read.problems).toContainEqual({
      severity: 'warning',
      location: 'cards[0].name',
      message: 'title is 250 characters long: cut to 200',
    });
  });

  it('says a Tasklane export or a random JSON is not a Trello board export', () => {
    expect(readTrelloExport('{"object":"export","format_version":1}').problems).toEqual([
      {
        severity: 'error',
        location: 'the file',
        message: 'not a Trello board export: this is a Tasklane export; import it as Tasklane',
      },
    ]);
    const random = readTrelloExport('{"hello":[1,2,3]}');
    expect(random.projects).toEqual([]);
    expect(random.problems[0]?.message).toMatch(/^not a Trello board export: /);
  });

  it('says where truncated JSON ends', () => {
    const text = JSON.stringify(BOARD).slice(0, 300);
    const read = readTrelloExport(text);
    expect(read.projects).toEqual([]);
    expect(read.problems).toHaveLength(1);
    expect(read.problems[0]?.severity).toBe('error');
    expect(read.problems[0]?.location).toMatch(/^position \d+ \(line 1, column \d+\)$/);
  });

  it('reads the generated 5,000-card board: every card, in list and pos order, fast', () => {
    const board = trelloBoardFixture({ cards: 5000 });
    const text = trelloBoardFixtureText({ cards: 5000 });
    const started = performance.now();
    const read = readTrelloExport(text);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(read.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    const tasks = read.projects[0]?.tasks ?? [];
    expect(tasks).toHaveLength(5000);
    expect(new Set(tasks.map((task) => task.sourceId)).size).toBe(5000);
    const columnOrder = read.projects[0]?.columns.map((column) => column.sourceId) ?? [];
    const ranks = tasks.map((task) => columnOrder.indexOf(task.columnId));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(tasks.some((task) => task.archived)).toBe(true);
    expect(tasks.some((task) => task.comments.length > 0)).toBe(true);
    expect(tasks.some((task) => task.description.includes('- [x] Step 1'))).toBe(true);
    expect(board.cards).toHaveLength(5000);
    expect(trelloBoardFixtureText({ cards: 50 })).toBe(trelloBoardFixtureText({ cards: 50 }));
  });
});
