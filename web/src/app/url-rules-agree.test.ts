import { TASK_PRIORITIES, TASK_SORTS, TaskSearchSchema } from '@api/tasks/tasks.schemas.ts';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { boardSearchSchema } from '../features/tasks/board-search.ts';
import { searchValidator } from '../lib/routing/route-params.ts';
import { taskParams } from './route-params.ts';

// The board's first load parses its URL without zod (decision 0028): these hold its rules to the API's.

const NUMBERS = [
  '1',
  '42',
  '0',
  '-1',
  '1.5',
  '1e3',
  ' 7',
  '',
  'abc',
  '9007199254740991',
  '9007199254740992',
  '0x10',
  'Infinity',
  '2147483648',
];

function accepts(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

describe("the board's URL rules, without zod, answer as the API's schemas", () => {
  it("for a task's number, read as the number", () => {
    const apiNumber = z.coerce.number<string>().check(z.int(), z.minimum(1));
    for (const number of NUMBERS) {
      const api = z.safeParse(apiNumber, number);
      const parsed = accepts(() => taskParams.parse({ slug: 'acme', key: 'ENG', number }));
      expect(parsed, number).toBe(api.success);
      if (api.success) expect(taskParams.parse({ slug: 'acme', key: 'ENG', number }).number).toBe(api.data);
    }
  });

  it("for the board's search, as the zod schema it replaced", () => {
    // The API's assignee and label filters: up to 20 distinct values, separated by commas.
    const upTo20 = (item: z.ZodMiniType<unknown, string>) =>
      z.string().check(
        z.refine((text) => {
          const items = text.split(',');
          return items.every((value) => z.safeParse(item, value).success) && new Set(items).size <= 20;
        }),
      );
    const replaced = z.object({
      view: z.optional(z.enum(['board', 'list'])),
      sort: z.optional(z.enum(TASK_SORTS)),
      assignee: z.optional(upTo20(z.union([z.literal('me'), z.literal('none'), z.uuid()]))),
      label: z.optional(upTo20(z.uuid())),
      priority: z.optional(
        z
          .string()
          .check(z.regex(new RegExp(`^(${TASK_PRIORITIES.join('|')})(,(${TASK_PRIORITIES.join('|')}))*$`))),
      ),
      q: z.optional(z.pipe(z.coerce.string(), TaskSearchSchema)),
    });
    const uuid = '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10';
    const samples: Record<string, unknown>[] = [
      {},
      { view: 'list', sort: '-priority', assignee: 'me', label: uuid, priority: 'high,urgent', q: 'billing' },
      { view: 'grid', sort: 'title', assignee: 'maya', label: 'design', priority: 'high,', q: '' },
      { assignee: 'none', priority: 'none', q: 42 },
      { assignee: uuid.toUpperCase(), label: '00000000-0000-0000-0000-000000000000' },
      { assignee: 'ffffffff-ffff-ffff-ffff-ffffffffffff', label: '7d0f1f8e-2f5a-9c3e-9d61-2b1f0c1d7a10' },
      { label: '7d0f1f8e-2f5a-4c3e-7d61-2b1f0c1d7a10', q: 'x'.repeat(100) },
      { q: 'x'.repeat(101), sort: 'position', view: 'board' },
      { q: 'a\0b', priority: 'HIGH', extra: 'kept out' },
      { q: true, view: 1, assignee: 5 },
      { assignee: `me,none,${uuid}`, label: `${uuid},00000000-0000-0000-0000-000000000000` },
      { assignee: 'me,', label: `${uuid},design` },
      {
        assignee: Array.from({ length: 21 }, (_, i) => `${String(i).padStart(8, '0')}${uuid.slice(8)}`).join(
          ',',
        ),
      },
      {
        label: Array.from({ length: 20 }, (_, i) => `${String(i).padStart(8, '0')}${uuid.slice(8)}`).join(
          ',',
        ),
      },
      { assignee: 'me,me', label: `${uuid},${uuid}` },
    ];
    const ours = searchValidator(boardSearchSchema);
    const theirs = searchValidator(replaced);
    for (const sample of samples) expect(ours(sample), JSON.stringify(sample)).toEqual(theirs(sample));
  });
});
