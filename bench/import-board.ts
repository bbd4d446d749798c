/**
 * Row p: what an import costs over writing the same rows. The subject is `POST …/imports` of a Trello
 * board's JSON export (generated to the export's shape, `trello-fixture.ts`) with `dry_run=false`,
 * through the gateway: the file read, planned, and written in one transaction in batches. The floor is a
 * new project and the same number of tasks (the cards' titles, descriptions and statuses) in one
 * multi-row insert as the same person under RLS, so the same triggers (numbers, events, broadcasts) fire.
 * Each round imports a board of its own (a new board id, so a new project). The member is an admin for
 * the row: imports are for admins.
 */
import { randomUUID } from 'node:crypto';
import { readTrelloExport } from '../supabase/functions/api/imports/trello-source.ts';
import { trelloBoardFixture } from '../supabase/functions/api/imports/trello-fixture.ts';
import { suggestStatus } from '../supabase/functions/api/imports/status-suggestion.ts';
import type { BenchStack } from './bench-stack.ts';
import { insertProjectWithTasks, setRole } from './import-board.queries.ts';
import { measureInterleaved } from './interleaved.ts';
import { apiLikeDatabase, API_PREFIX } from './list-overhead.ts';
import { ratioRow, type BenchRow } from './rows.ts';

export interface ImportBenchOptions {
  /** Cards on the board. */
  cards: number;
  /** Timed imports (and floors), after one untimed of each. */
  rounds: number;
}

const BOUNDARY = 'bench-import-boundary';

export async function measureImportBoard(
  stack: BenchStack,
  options: ImportBenchOptions,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  const board = trelloBoardFixture({ cards: options.cards });
  const tasks = floorTasksOf(JSON.stringify(board));
  const db = apiLikeDatabase(stack, progress);
  const slug = stack.seeded.slug;
  const long = { statementTimeoutMs: 120_000, idleInTransactionTimeoutMs: 120_000 };
  await setRole(stack.owner.statements, slug, stack.principal.user_id, 'admin');
  try {
    progress(
      `p: imports of a ${options.cards.toLocaleString('en')}-card Trello board, and as many tasks in one insert…`,
    );
    const latency = await measureInterleaved(
      {
        imported: () => importBoard(stack, { ...board, id: randomUUID().replaceAll('-', '').slice(0, 24) }),
        inserted: () =>
          db.asCaller(stack.principal, (sql) => insertProjectWithTasks(sql, slug, uniqueKey(), tasks), long),
      },
      { warmup: 1, measured: options.rounds, budgetSeconds: 3_600 },
    );
    return [
      {
        requested: options.rounds,
        ...ratioRow(
          'p',
          {
            name: `import of a ${options.cards.toLocaleString('en')}-card Trello board (API, one transaction)`,
            latency: latency.imported,
          },
          { name: 'the same tasks in one multi-row insert, as the caller', latency: latency.inserted },
          3,
        ),
      },
    ];
  } finally {
    await setRole(stack.owner.statements, slug, stack.principal.user_id, 'member');
    await db.close();
  }
}

/** The tasks the import makes of the board, as the floor inserts them (archived cards are skipped). */
function floorTasksOf(text: string) {
  const [project] = readTrelloExport(text).projects;
  const statusOf = new Map(project?.columns.map((column) => [column.sourceId, suggestStatus(column.name)]));
  return (project?.tasks ?? [])
    .filter((task) => !task.archived)
    .map((task) => ({
      title: task.title,
      description: task.description,
      status: statusOf.get(task.columnId) ?? 'todo',
    }));
}

async function importBoard(stack: BenchStack, board: Record<string, unknown>): Promise<void> {
  const body =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="source"\r\n\r\ntrello\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="dry_run"\r\n\r\nfalse\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="board.json"\r\n` +
    `Content-Type: application/json\r\n\r\n${JSON.stringify(board)}\r\n--${BOUNDARY}--\r\n`;
  const response = await fetch(
    `${stack.standIn.apiUrl}${API_PREFIX}/workspaces/${stack.seeded.slug}/imports`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.accessToken}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      body,
    },
  );
  const text = await response.text();
  if (response.status !== 201)
    throw new Error(`the import answered ${response.status}: ${text.slice(0, 300)}`);
}

const uniqueKey = () =>
  `P${randomUUID()
    .replaceAll('-', '')
    .slice(0, 8)
    .toUpperCase()
    .replace(/^[0-9]/, 'Q')}`;

export function describeImportBoardMethod(options: ImportBenchOptions): string {
  return (
    `row p imports a ${options.cards.toLocaleString('en')}-card Trello board (generated to the export's shape) ` +
    `once untimed, then ${options.rounds} times, taking turns with a new project and the same tasks in one ` +
    `multi-row insert as the same person (an admin for the row) under RLS; each import a board of its own`
  );
}
