/**
 * Settings → Import in the browser: the owner chooses a Trello board's JSON export, sees the preview,
 * maps one list to another status, imports, follows the link to the new board and finds the cards there;
 * a member has no Import tab.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  boardColumn as column,
  expectNoSeriousAxeViolations as expectAccessible,
  saveScreenshots as screenshots,
  SCREENSHOTS,
  useBrowserPeople,
  type Person,
} from '../support/web-e2e.ts';

const { webUrl } = inject('stack');
const { signUp, call } = useBrowserPeople('import test password');

function card(id: string, name: string, list: string, pos: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    name,
    desc: '',
    idList: list,
    closed: false,
    pos,
    due: null,
    idLabels: [],
    idMembers: [],
    idChecklists: [],
    ...extra,
  };
}

/** A small Trello board, written as Trello exports one. */
function trelloBoard(ownerEmail: string) {
  return {
    id: `b0ard${randomUUID().replaceAll('-', '').slice(0, 12)}`,
    name: 'Launch plan',
    desc: 'The launch board.',
    closed: false,
    lists: [
      { id: 'list-todo', name: 'To do', closed: false, pos: 1 },
      { id: 'list-doing', name: 'Doing', closed: false, pos: 2 },
      { id: 'list-done', name: 'Done', closed: false, pos: 3 },
    ],
    labels: [
      { id: 'l-bug', name: 'Bug', color: 'red' },
      { id: 'l-ux', name: 'UX', color: 'purple' },
    ],
    members: [
      { id: 'm-olivia', fullName: 'Olivia Owner', username: 'olivia', email: ownerEmail },
      { id: 'm-bob', fullName: 'Bob Builder', username: 'bob' },
    ],
    cards: [
      card('c-1', 'Write the launch post', 'list-todo', 1, {
        idLabels: ['l-bug', 'l-ux'],
        idMembers: ['m-olivia'],
      }),
      card('c-2', 'Book the venue', 'list-todo', 2, { idMembers: ['m-bob'] }),
      card('c-3', 'Review the slides', 'list-doing', 1),
      card('c-4', 'Pick a date', 'list-done', 1),
      card('c-5', 'An archived idea', 'list-todo', 3, { closed: true }),
    ],
    checklists: [],
    actions: [
      {
        id: 'a-1',
        type: 'commentCard',
        date: '2026-03-01T09:00:00.000Z',
        idMemberCreator: 'm-bob',
        memberCreator: { id: 'm-bob', fullName: 'Bob Builder', username: 'bob' },
        data: { text: 'Looks good', card: { id: 'c-1', name: 'Write the launch post' } },
      },
    ],
  };
}

describe('an owner imports a Trello board', () => {
  const slug = `import-${randomUUID().slice(0, 6)}`;
  let owner: Person;
  let member: Person;
  let page: Page;

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    owner = await signUp();
    member = await signUp();
    page = owner.page;
    await call(owner, 'POST', '/workspaces', { name: 'Import test', slug });
    const invite = await call<{ accept_url: string }>(owner, 'POST', `/workspaces/${slug}/invitations`, {
      email: member.email,
      role: 'member',
    });
    await call(member, 'POST', `/invitations/${invite.accept_url.split('/').at(-1) ?? ''}/accept`);
  }, 120_000);

  afterAll(async () => {
    expect(owner.errors).toEqual([]);
    expect(member.errors).toEqual([]);
    await owner.context.close();
    await member.context.close();
  });

  test('the preview, a list mapped to another status, the import and the cards on the new board', async () => {
    await page.goto(`${webUrl}/w/${slug}/settings/general`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Import' }).click();
    const intro = page.getByText(/Bring in a Trello board, a CSV of tasks/);
    await intro.waitFor();
    await expectAccessible(page);
    await screenshots(page, 'import-empty', () => intro.waitFor());

    await page.getByRole('radio', { name: /Trello board \(JSON export\)/ }).check();
    await page.getByLabel('File').setInputFiles({
      name: 'launch-plan.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(trelloBoard(owner.email))),
    });
    const summary = page.getByText('Will create 1 project, 4 tasks, 2 labels, 1 comment.');
    await summary.waitFor();
    await page.getByText('new project').waitFor();
    await expect.poll(() => page.getByLabel('Status for Doing').inputValue()).toBe('in_progress');
    await expectAccessible(page);
    await screenshots(page, 'import-preview', () => summary.waitFor());

    await page.getByLabel('Status for Doing').selectOption('in_review');
    const reviewRow = page.getByRole('row', { name: /Review the slides/ });
    await reviewRow.getByText('In review').waitFor();
    await page.getByLabel('Import archived cards as Canceled').check();
    await page.getByText('Will create 1 project, 5 tasks, 2 labels, 1 comment.').waitFor();

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('status').getByText('Imported 5 tasks into LP.').waitFor();
    await page.getByRole('link', { name: 'Open the Launch plan board' }).click();
    await page.waitForURL(`${webUrl}/w/${slug}/p/LP`);
    await column(page, 'todo').getByText('Write the launch post').waitFor();
    await column(page, 'todo').getByText('Book the venue').waitFor();
    await column(page, 'in_review').getByText('Review the slides').waitFor();
    // Done and Canceled start folded on a board, their counts in view: the archived card came as Canceled.
    await column(page, 'done').getByTestId('count-done').getByText('1').waitFor();
    await column(page, 'canceled').getByTestId('count-canceled').getByText('1').waitFor();
  }, 180_000);

  test('a member has no Import tab, and the screen says who can import', async () => {
    await member.page.goto(`${webUrl}/w/${slug}/settings/general`);
    const tabs = member.page.getByRole('navigation', { name: 'Settings' });
    await tabs.getByRole('link', { name: 'Export' }).waitFor();
    expect(await tabs.getByRole('link', { name: 'Import' }).count()).toBe(0);
    await member.page.goto(`${webUrl}/w/${slug}/settings/import`);
    await member.page.getByText('Only owners and admins can import into the workspace.').waitFor();
  }, 60_000);
});
