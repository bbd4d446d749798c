/**
 * A Trello board's JSON export ("Print, export and share → Export as JSON") read into an ImportSource:
 * the board is one project, its lists are the columns (open ones in board order, then closed ones,
 * whose cards are archived), its cards the tasks, list by list, top to bottom. A card's checklists are
 * appended to its description as Markdown task lists; its comments are the board's `commentCard`
 * actions, oldest first. Trello exports no e-mail for most members, so a card's member is kept only
 * when it has one.
 */
import { readDate, utcDayOf } from './import-dates.ts';
import { arrayOf, isObject, numberOf, readJson, stringOf, type JsonObject } from './import-json.ts';
import { fitDescription, fitTitle, quote } from './import-text.ts';
import { LabelCollector, limitTaskLabels } from './label-collector.ts';
import { TRELLO_NO_COLOR, trelloColorHex } from './label-colors.ts';
import { suggestStatus } from './status-suggestion.ts';
import type {
  ImportColumn,
  ImportComment,
  ImportProblem,
  ImportSource,
  ImportTask,
} from './import-source.ts';

interface Indexed<T> {
  index: number;
  value: T;
}

interface TrelloMember {
  fullName: string | null;
  email: string | null;
}

const notTrello = (why: string): ImportSource => ({
  projects: [],
  labels: [],
  problems: [{ severity: 'error', location: 'the file', message: `not a Trello board export: ${why}` }],
});

export function readTrelloExport(text: string): ImportSource {
  const json = readJson(text, 'the Trello export');
  if (!json.ok) return { projects: [], labels: [], problems: [json.problem] };
  const board = json.value;
  if (!isObject(board)) return notTrello('the file is JSON, but not an object');
  if (board.object === 'export') return notTrello('this is a Tasklane export; import it as Tasklane');
  if (!Array.isArray(board.lists) || !Array.isArray(board.cards) || typeof board.id !== 'string') {
    return notTrello('it has no board id, lists and cards');
  }
  return readBoard(board);
}

function readBoard(board: JsonObject): ImportSource {
  const problems: ImportProblem[] = [];
  const labels = new LabelCollector(problems);
  const labelNames = readLabels(board, labels, problems);
  const members = readMembers(board);
  const checklists = readChecklists(board, problems);
  const comments = readComments(board, members);
  const { columns, closedLists, rankOfList } = readLists(board, problems);

  const cards: Indexed<JsonObject>[] = [];
  arrayOf(board.cards).forEach((card, index) => {
    if (!isObject(card) || typeof card.id !== 'string') {
      problems.push({ severity: 'warning', location: `cards[${index}]`, message: 'is not a card: skipped' });
    } else if (!rankOfList.has(stringOf(card.idList) ?? '')) {
      problems.push({
        severity: 'warning',
        location: `cards[${index}].idList`,
        message: `is in a list the export does not have (${quote(String(card.idList))}): skipped`,
      });
    } else {
      cards.push({ index, value: card });
    }
  });
  cards.sort(
    (a, b) =>
      (rankOfList.get(String(a.value.idList)) ?? 0) - (rankOfList.get(String(b.value.idList)) ?? 0) ||
      (numberOf(a.value.pos) ?? 0) - (numberOf(b.value.pos) ?? 0) ||
      a.index - b.index,
  );

  const tasks: ImportTask[] = [];
  for (const { index, value: card } of cards) {
    const task = readCard(card, index, { labelNames, members, checklists, comments, closedLists, problems });
    if (task) tasks.push(task);
  }

  const project = {
    sourceId: `trello:${String(board.id)}`,
    name: (stringOf(board.name) ?? '').trim() || 'Trello board',
    key: null,
    description: stringOf(board.desc) ?? '',
    columns,
    tasks,
  };
  return { projects: [project], labels: labels.labels(), problems };
}

function readLabels(
  board: JsonObject,
  labels: LabelCollector,
  problems: ImportProblem[],
): Map<string, string> {
  const names = new Map<string, string>();
  arrayOf(board.labels).forEach((label, index) => {
    if (!isObject(label) || typeof label.id !== 'string') return;
    const colorName = stringOf(label.color);
    let color = colorName === null ? TRELLO_NO_COLOR : trelloColorHex(colorName);
    if (color === null) {
      problems.push({
        severity: 'warning',
        location: `labels[${index}].color`,
        message: `${quote(colorName ?? '')} is not a Trello colour: the label is grey`,
      });
      color = TRELLO_NO_COLOR;
    }
    const name = (stringOf(label.name) ?? '').trim() || (colorName ?? '').replace('_', ' ');
    const known = labels.add(name, color, `labels[${index}].name`);
    if (known) names.set(label.id, known);
  });
  return names;
}

function readMembers(board: JsonObject): Map<string, TrelloMember> {
  const members = new Map<string, TrelloMember>();
  for (const member of arrayOf(board.members)) {
    if (!isObject(member) || typeof member.id !== 'string') continue;
    const email = (stringOf(member.email) ?? '').trim();
    members.set(member.id, {
      fullName: stringOf(member.fullName) ?? stringOf(member.username),
      email: email.includes('@') ? email : null,
    });
  }
  return members;
}

/** Each card's checklists as Markdown, by card id. */
function readChecklists(board: JsonObject, problems: ImportProblem[]): Map<string, string[]> {
  const found: Indexed<JsonObject>[] = [];
  arrayOf(board.checklists).forEach((checklist, index) => {
    if (isObject(checklist) && typeof checklist.idCard === 'string') found.push({ index, value: checklist });
    else
      problems.push({
        severity: 'warning',
        location: `checklists[${index}]`,
        message: 'is not a checklist: skipped',
      });
  });
  found.sort((a, b) => (numberOf(a.value.pos) ?? 0) - (numberOf(b.value.pos) ?? 0) || a.index - b.index);
  const byCard = new Map<string, string[]>();
  for (const { value: checklist } of found) {
    const items = arrayOf(checklist.checkItems)
      .filter(isObject)
      .map((item, index) => ({ item, index }))
      .sort((a, b) => (numberOf(a.item.pos) ?? 0) - (numberOf(b.item.pos) ?? 0) || a.index - b.index)
      .map(
        ({ item }) => `- [${item.state === 'complete' ? 'x' : ' '}] ${oneLine(stringOf(item.name) ?? '')}`,
      );
    const heading = `### ${oneLine(stringOf(checklist.name) ?? '') || 'Checklist'}`;
    const card = String(checklist.idCard);
    byCard.set(card, [...(byCard.get(card) ?? []), [heading, ...items].join('\n')]);
  }
  return byCard;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/** Each card's comments, oldest first, by card id. */
function readComments(board: JsonObject, members: Map<string, TrelloMember>): Map<string, ImportComment[]> {
  const byCard = new Map<string, ImportComment[]>();
  for (const action of arrayOf(board.actions)) {
    if (!isObject(action) || action.type !== 'commentCard' || !isObject(action.data)) continue;
    const card = isObject(action.data.card) ? stringOf(action.data.card.id) : null;
    const body = stringOf(action.data.text) ?? '';
    if (card === null || body.trim() === '') continue;
    const creator = isObject(action.memberCreator) ? action.memberCreator : {};
    const member = members.get(stringOf(action.idMemberCreator) ?? '');
    const date = stringOf(action.date);
    byCard.set(card, [
      ...(byCard.get(card) ?? []),
      {
        body,
        authorName: stringOf(creator.fullName) ?? stringOf(creator.username) ?? member?.fullName ?? null,
        authorEmail: member?.email ?? null,
        createdAt: date !== null && !Number.isNaN(Date.parse(date)) ? date : null,
      },
    ]);
  }
  for (const comments of byCard.values()) {
    comments.sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? ''));
  }
  return byCard;
}

function readLists(board: JsonObject, problems: ImportProblem[]) {
  const lists: Indexed<JsonObject>[] = [];
  arrayOf(board.lists).forEach((list, index) => {
    if (isObject(list) && typeof list.id === 'string') lists.push({ index, value: list });
    else
      problems.push({ severity: 'warning', location: `lists[${index}]`, message: 'is not a list: skipped' });
  });
  lists.sort(
    (a, b) =>
      Number(a.value.closed === true) - Number(b.value.closed === true) ||
      (numberOf(a.value.pos) ?? 0) - (numberOf(b.value.pos) ?? 0) ||
      a.index - b.index,
  );
  const columns: ImportColumn[] = lists.map(({ index, value: list }) => {
    const name = (stringOf(list.name) ?? '').trim() || `List ${index + 1}`;
    return { sourceId: String(list.id), name, suggestedStatus: suggestStatus(name) };
  });
  return {
    columns,
    closedLists: new Set(
      lists.filter(({ value }) => value.closed === true).map(({ value }) => String(value.id)),
    ),
    rankOfList: new Map(lists.map(({ value }, rank) => [String(value.id), rank])),
  };
}

interface CardContext {
  labelNames: Map<string, string>;
  members: Map<string, TrelloMember>;
  checklists: Map<string, string[]>;
  comments: Map<string, ImportComment[]>;
  closedLists: Set<string>;
  problems: ImportProblem[];
}

function readCard(card: JsonObject, index: number, context: CardContext): ImportTask | null {
  const { problems } = context;
  const at = `cards[${index}]`;
  const title = fitTitle(stringOf(card.name) ?? '', `${at}.name`, problems);
  if (title === null) return null;
  const id = String(card.id);
  const description = [stringOf(card.desc) ?? '', ...(context.checklists.get(id) ?? [])]
    .filter((part) => part.trim() !== '')
    .join('\n\n');
  const labelNames = arrayOf(card.idLabels)
    .map((labelId) => context.labelNames.get(String(labelId)))
    .filter((name): name is string => name !== undefined);
  return {
    sourceId: `trello:${id}`,
    columnId: String(card.idList),
    title,
    description: fitDescription(description, `${at}.desc`, problems),
    priority: 'none',
    assigneeEmail: assigneeOf(card, at, context),
    dueDate: dueDateOf(card, at, problems),
    labelNames: limitTaskLabels(labelNames, `${at}.idLabels`, problems),
    comments: context.comments.get(id) ?? [],
    archived: card.closed === true || context.closedLists.has(String(card.idList)),
  };
}

function assigneeOf(card: JsonObject, at: string, { members, problems }: CardContext): string | null {
  const memberIds = arrayOf(card.idMembers).map(String);
  const first = memberIds[0];
  if (first === undefined) return null;
  const member = members.get(first);
  if (member?.email) return member.email;
  problems.push({
    severity: 'warning',
    location: `${at}.idMembers`,
    message: `left unassigned: Trello gives no e-mail for ${member?.fullName ? quote(member.fullName) : `member ${first}`}`,
  });
  return null;
}

function dueDateOf(card: JsonObject, at: string, problems: ImportProblem[]): string | null {
  const due = stringOf(card.due);
  if (due === null || due.trim() === '') return null;
  const reading = readDate(due);
  const date = utcDayOf(due) ?? (reading.kind === 'date' ? reading.date : null);
  if (date === null) {
    problems.push({
      severity: 'warning',
      location: `${at}.due`,
      message: `${quote(due)} is not a date: no due date`,
    });
  }
  return date;
}
