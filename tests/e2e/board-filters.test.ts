import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  boardCard as card,
  expectNoSeriousAxeViolations,
  saveScreenshots as screenshots,
  useBrowserPeople,
  type Person,
} from '../support/web-e2e.ts';

const { webUrl } = inject('stack');
const PASSWORD = 'board filters test password';

const { signUp, call } = useBrowserPeople(PASSWORD);

describe("the board's filters take several values", () => {
  const slug = `filters-${Date.now().toString(36)}`;
  const people: Person[] = [];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const [maya, lin, sam] = [await signUp(), await signUp(), await signUp()];
    if (!maya || !lin || !sam) throw new Error('no people');
    people.push(maya, lin, sam);
    await call(maya, 'POST', '/workspaces', { name: 'Filters test', slug });
    await call(maya, 'POST', `/workspaces/${slug}/projects`, { key: 'FLT', name: 'Filters' });
    for (const [person, name] of [
      [maya, 'Maya Owner'],
      [lin, 'Lin Member'],
      [sam, 'Sam Third'],
    ] as const) {
      const me = await call<{ id: string }>(person, 'PATCH', '/me', { display_name: name });
      ids[name] = me.id;
      if (person === maya) continue;
      const invite = await call<{ accept_url: string }>(maya, 'POST', `/workspaces/${slug}/invitations`, {
        email: person.email,
        role: 'member',
      });
      await call(person, 'POST', `/invitations/${invite.accept_url.split('/').at(-1)}/accept`);
    }
    for (const [title, assignee] of [
      ['Maya writes the copy', 'Maya Owner'],
      ['Lin sets up redirects', 'Lin Member'],
      ['Sam checks the banner', 'Sam Third'],
      ['Nobody owns this yet', null],
    ] as const) {
      await call(maya, 'POST', `/workspaces/${slug}/projects/FLT/tasks`, {
        title,
        assignee_id: assignee === null ? null : ids[assignee],
      });
    }
  });

  afterAll(async () => {
    for (const person of people) {
      expect(person.errors).toEqual([]);
      await person.context.close();
    }
  });

  test('two assignees picked in the filter bar show exactly their cards, in the URL, after a reload', async () => {
    const page = people[0]?.page;
    if (!page) throw new Error('no page');
    await page.goto(`${webUrl}/w/${slug}/p/FLT`);
    for (const key of ['FLT-1', 'FLT-2', 'FLT-3', 'FLT-4']) await card(page, key).waitFor();

    await page.getByRole('button', { name: 'Assignee' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Maya Owner' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Lin Member' }).click();
    await expect
      .poll(() => page.getByRole('menuitemcheckbox', { name: 'Lin Member' }).getAttribute('aria-checked'))
      .toBe('true');
    await card(page, 'FLT-3').waitFor({ state: 'detached' });
    await card(page, 'FLT-4').waitFor({ state: 'detached' });
    const shown = () => page.locator('a[data-task-key]').evaluateAll((cards) => cards.length);
    await expect.poll(shown).toBe(2);
    // With the menu open: its checkboxes, and the board behind it.
    await expectNoSeriousAxeViolations(page);
    await screenshots(page, 'board-filter-assignees');

    const assignees = () => new URL(page.url()).searchParams.get('assignee')?.split(',').sort();
    expect(assignees()).toEqual([ids['Maya Owner'], ids['Lin Member']].sort());
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Assignee: Maya Owner, Lin Member' }).waitFor();

    await page.reload();
    await card(page, 'FLT-1').waitFor();
    await card(page, 'FLT-2').waitFor();
    await expect.poll(shown).toBe(2);
    expect(assignees()).toEqual([ids['Maya Owner'], ids['Lin Member']].sort());
    await page.getByRole('button', { name: 'Assignee: Maya Owner, Lin Member' }).waitFor();
  });

  test('in the list, a click and a shift-click select a range; Esc clears it; a viewer sees no checkboxes', async () => {
    const page = people[0]?.page;
    if (!page) throw new Error('no page');
    await page.goto(`${webUrl}/w/${slug}/p/FLT?view=list`);
    const boxes = page.getByRole('checkbox', { name: /^Select FLT-\d+$/ });
    // A cold page load under CI can take longer than a poll's second; wait for the list, then count.
    await boxes.first().waitFor();
    await expect.poll(() => boxes.count()).toBe(4);
    const keys = await page
      .locator('tbody a[data-task-key]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('data-task-key') ?? ''));
    const box = (index: number) => page.getByRole('checkbox', { name: `Select ${keys[index] ?? ''}` });
    await box(0).click();
    await box(2).click({ modifiers: ['Shift'] });
    for (const index of [0, 1, 2]) expect(await box(index).isChecked()).toBe(true);
    expect(await box(3).isChecked()).toBe(false);
    await page.getByRole('region', { name: 'Selected tasks' }).getByText('3 selected').waitFor();
    const all = page.getByRole('checkbox', { name: 'Select all tasks' });
    expect(
      await all.evaluate((input) => (input as unknown as { indeterminate: boolean }).indeterminate),
    ).toBe(true);
    await expectNoSeriousAxeViolations(page);
    await screenshots(page, 'list-selection');

    await box(1).focus();
    await page.keyboard.press('Escape');
    await page.getByText('3 selected').waitFor({ state: 'detached' });
    expect(await box(0).isChecked()).toBe(false);
    await all.click();
    await page.getByText('4 selected').waitFor();
    await all.click();
    await page.getByText('4 selected').waitFor({ state: 'detached' });

    const viewer = await signUp();
    people.push(viewer);
    const invite = await call<{ accept_url: string }>(
      people[0] as Person,
      'POST',
      `/workspaces/${slug}/invitations`,
      {
        email: viewer.email,
        role: 'viewer',
      },
    );
    await call(viewer, 'POST', `/invitations/${invite.accept_url.split('/').at(-1)}/accept`);
    await viewer.page.goto(`${webUrl}/w/${slug}/p/FLT?view=list`);
    await viewer.page.locator('tbody a[data-task-key]').first().waitFor();
    expect(await viewer.page.getByRole('checkbox').count()).toBe(0);
  });

  test('bulk: three rows set to Done, two deleted and brought back with Undo; another person sees it live', async () => {
    const [maya, lin] = people;
    if (!maya || !lin) throw new Error('no people');
    const { page } = maya;
    const list = `${webUrl}/w/${slug}/p/FLT?view=list`;
    await lin.page.goto(list);
    await page.goto(list);
    // The list (a lazy chunk, then its page of tasks) is there before its rows are counted.
    await page.getByRole('checkbox', { name: 'Select FLT-4' }).waitFor();
    await lin.page.locator('tbody a[data-task-key="FLT-4"]').waitFor();
    await expect.poll(() => page.getByRole('checkbox', { name: /^Select FLT-\d+$/ }).count()).toBe(4);
    const keys = await page
      .locator('tbody a[data-task-key]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('data-task-key') ?? ''));
    const box = (key: string) => page.getByRole('checkbox', { name: `Select ${key}` });
    const [first, second, third, fourth] = keys;
    if (!first || !second || !third || !fourth) throw new Error('no rows');
    await box(first).click();
    await box(third).click({ modifiers: ['Shift'] });
    const bar = page.getByRole('region', { name: 'Selected tasks' });
    await bar.getByText('3 selected').waitFor();
    await expectNoSeriousAxeViolations(page);
    await screenshots(page, 'list-bulk-bar');
    await bar.getByRole('button', { name: 'Status' }).click();
    await page.getByRole('menuitem', { name: 'Done' }).click();
    await bar.waitFor({ state: 'detached' });

    const statuses = async () => {
      const listed = await call<{ data: { key: string; status: string }[] }>(
        maya,
        'GET',
        `/workspaces/${slug}/projects/FLT/tasks`,
      );
      return Object.fromEntries(listed.data.map((task) => [task.key, task.status]));
    };
    expect(await statuses()).toEqual({
      [first]: 'done',
      [second]: 'done',
      [third]: 'done',
      [fourth]: 'todo',
    });
    const linRow = (key: string) =>
      lin.page.locator('tbody tr', { has: lin.page.locator(`a[data-task-key="${key}"]`) });
    await linRow(second).getByText('Done').waitFor({ timeout: 15_000 });

    await box(second).click();
    await box(fourth).click();
    await bar.getByText('2 selected').waitFor();
    await bar.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('2 tasks deleted').waitFor();
    await expect.poll(async () => Object.keys(await statuses()).sort()).toEqual([first, third].sort());
    await lin.page.locator(`a[data-task-key="${fourth}"]`).waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(async () => await statuses())
      .toEqual({ [first]: 'done', [second]: 'done', [third]: 'done', [fourth]: 'todo' });
    await page.locator(`a[data-task-key="${fourth}"]`).waitFor();
    await lin.page.locator(`a[data-task-key="${fourth}"]`).waitFor({ timeout: 15_000 });
  });
});
