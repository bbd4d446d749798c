import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { watchPageErrors } from '../support/browser.ts';
import {
  boardCard as card,
  boardColumn as column,
  contrastInside,
  dragWithMouse,
  expectNoSeriousAxeViolations,
  KIT_LOAD_MS,
  saveScreenshots as screenshots,
  settled,
  useBrowserPeople,
  type Person,
} from '../support/web-e2e.ts';

const { webUrl } = inject('stack');
const PASSWORD = 'board test password';

// Chromium logs every 4xx answer; the unknown project's 404 is the one these tests provoke on purpose.
const notFound = /Failed to load resource: the server responded with a status of 404/;
const expectedErrors: RegExp[] = [];

const { browser, signUp, call } = useBrowserPeople(PASSWORD);

async function expectInColumn(page: Page, key: string, status: string) {
  await column(page, status).locator(`a[data-task-key="${key}"]`).waitFor();
}

/** The board's columns render anew once drag and drop has loaded: measure or scroll after that. */
async function dragAndDropLoaded(page: Page) {
  await expect
    .poll(() => page.locator('a[data-task-key]').first().getAttribute('aria-roledescription'), {
      timeout: KIT_LOAD_MS,
    })
    .not.toBeNull();
}

const moved = (page: Page) =>
  page.waitForResponse(
    (response) => response.url().includes('/move') && response.request().method() === 'POST',
  );

describe('the board', () => {
  let owner: Person;
  let viewer: Person;
  const slug = `board-${Date.now().toString(36)}`;
  let boardUrl: string;
  let labels: { id: string; name: string }[];

  beforeAll(async () => {
    owner = await signUp();
    await call(owner, 'POST', '/workspaces', { name: 'Board test', slug });
    await call(owner, 'POST', `/workspaces/${slug}/projects`, { key: 'WEB', name: 'Website relaunch' });
    labels = [
      await call(owner, 'POST', `/workspaces/${slug}/labels`, { name: 'design', color: '#8b5cf6' }),
      await call(owner, 'POST', `/workspaces/${slug}/labels`, { name: 'infra', color: '#0ea5e9' }),
    ];
    boardUrl = `${webUrl}/w/${slug}/p/WEB`;
  });

  afterAll(async () => {
    const unexpected = (errors: string[]) => errors.filter((e) => !expectedErrors.some((p) => p.test(e)));
    expect(unexpected(owner.errors)).toEqual([]);
    await owner.context.close();
    if (viewer) {
      expect(unexpected(viewer.errors)).toEqual([]);
      await viewer.context.close();
    }
  });

  test('an empty project says so and offers to create the first task', async () => {
    const { page } = owner;
    await page.goto(boardUrl);
    await page.getByRole('heading', { name: /Website relaunch/ }).waitFor();
    await page.getByText('No tasks yet').waitFor();
    await column(page, 'todo').getByTestId('count-todo').getByText('0').waitFor();
    await page.getByRole('button', { name: 'Create the first task' }).click();
    await page.getByRole('textbox', { name: 'New task in Todo' }).waitFor();
  });

  test('three tasks are added from the quick-add, which stays open for the next', async () => {
    const { page } = owner;
    const field = page.getByRole('textbox', { name: 'New task in Todo' });
    for (const title of ['Write the pricing page copy', 'Set up redirects', 'Cookie banner']) {
      await field.fill(title);
      await field.press('Enter');
      await expect.poll(() => field.inputValue()).toBe('');
    }
    for (const key of ['WEB-1', 'WEB-2', 'WEB-3']) await expectInColumn(page, key, 'todo');
    await column(page, 'todo').getByTestId('count-todo').getByText('3').waitFor();
    await page.getByText('No tasks yet').waitFor({ state: 'detached' });
    await field.press('Escape');
    await field.waitFor({ state: 'detached' });
  });

  test('one card is dragged with the mouse, another with the keyboard, and both stay after a reload', async () => {
    const { page } = owner;
    // Draggable once drag and drop has loaded, after the board shows (the test below drags before that).
    await expect
      .poll(() => card(page, 'WEB-1').getAttribute('aria-roledescription'), { timeout: KIT_LOAD_MS })
      .not.toBeNull();
    const mouseMove = moved(page);
    await dragWithMouse(page, card(page, 'WEB-1'), column(page, 'in_progress'));
    expect((await mouseMove).status()).toBe(200);
    await expectInColumn(page, 'WEB-1', 'in_progress');

    const keyboardMove = moved(page);
    await card(page, 'WEB-2').focus();
    await page.keyboard.press('Space');
    await page.getByText(/WEB-2 is over Todo/).waitFor({ state: 'attached' });
    await page.keyboard.press('ArrowRight');
    await page.getByText(/WEB-2 is over In progress/).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    expect((await keyboardMove).status()).toBe(200);
    await page.getByText(/Moved WEB-2 to In progress, position \d of 2/).waitFor({ state: 'attached' });

    await page.reload();
    await expectInColumn(page, 'WEB-1', 'in_progress');
    await expectInColumn(page, 'WEB-2', 'in_progress');
    await expectInColumn(page, 'WEB-3', 'todo');
  });

  test('the arrow keys move focus from card to card, within a column and across', async () => {
    const { page } = owner;
    const focused = () =>
      page.evaluate(() => {
        const active = (
          globalThis as unknown as {
            document: { activeElement: { dataset?: Record<string, string> } | null };
          }
        ).document.activeElement;
        return active?.dataset?.['taskKey'] ?? null;
      });
    const cardKeys = () =>
      column(page, 'in_progress')
        .locator('a[data-task-key]')
        .evaluateAll((cards) =>
          cards.map(
            (element) => (element as unknown as { dataset: Record<string, string> }).dataset['taskKey'],
          ),
        );
    // The board draws its cards again when drag and drop has loaded: read them once that is done.
    await expect.poll(async () => [...(await cardKeys())].sort()).toEqual(['WEB-1', 'WEB-2']);
    const inProgress = await cardKeys();
    await card(page, 'WEB-3').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(focused).toBe(inProgress[0]);
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe(inProgress[1]);
    await page.keyboard.press('ArrowUp');
    await expect.poll(focused).toBe(inProgress[0]);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focused).toBe('WEB-3');
  });

  test('a label filter typed into the URL narrows the cards and the counts', async () => {
    const { page } = owner;
    const [design, infra] = labels;
    const tasks = await call<{ data: { id: string; key: string }[] }>(
      owner,
      'GET',
      `/workspaces/${slug}/projects/WEB/tasks`,
    );
    const id = (key: string) => tasks.data.find((t) => t.key === key)?.id ?? '';
    const me = await call<{ id: string }>(owner, 'GET', '/me');
    await call(owner, 'PATCH', `/tasks/${id('WEB-1')}`, {
      label_ids: [design?.id],
      assignee_id: me.id,
      priority: 'high',
      due_date: '2024-01-15',
    });
    await call(owner, 'PATCH', `/tasks/${id('WEB-3')}`, {
      label_ids: [design?.id, infra?.id],
      priority: 'urgent',
    });
    await call(owner, 'PATCH', `/tasks/${id('WEB-2')}`, { label_ids: [infra?.id], due_date: '2099-06-01' });
    await call(owner, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
      title: 'Audit the sign-up funnel before the relaunch',
      status: 'backlog',
      priority: 'medium',
      assignee_id: me.id,
      label_ids: [infra?.id],
      due_date: '2024-03-01',
    });

    await page.goto(`${boardUrl}?label=${design?.id}`);
    await expectInColumn(page, 'WEB-1', 'in_progress');
    await expectInColumn(page, 'WEB-3', 'todo');
    await column(page, 'in_progress').getByTestId('count-in_progress').getByText('1').waitFor();
    await column(page, 'todo').getByTestId('count-todo').getByText('1').waitFor();
    expect(await card(page, 'WEB-2').count()).toBe(0);
    await page.getByRole('button', { name: 'design' }).waitFor();

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expectInColumn(page, 'WEB-2', 'in_progress');
    expect(new URL(page.url()).searchParams.get('label')).toBeNull();
  });

  test('the board has no serious accessibility problems; screenshots of the board and the list', async () => {
    const { page } = owner;
    await page.goto(boardUrl);
    await expectInColumn(page, 'WEB-1', 'in_progress');
    await card(page, 'WEB-1').getByText('Overdue', { exact: false }).waitFor();
    await expectNoSeriousAxeViolations(page);
    await screenshots(page, 'board');

    await page.getByRole('radio', { name: 'List' }).click();
    await page.getByRole('columnheader', { name: 'Priority' }).waitFor();
    expect(new URL(page.url()).searchParams.get('view')).toBe('list');
    await page.getByRole('columnheader', { name: 'Priority' }).getByRole('button').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('-priority');
    await expect
      .poll(() => page.locator('tbody a[data-task-key]').first().getAttribute('data-task-key'))
      .toBe('WEB-3');
    await expectNoSeriousAxeViolations(page);
    await screenshots(page, 'board-list');
  });

  test('a viewer sees the board but no quick-add, and cannot drag', async () => {
    viewer = await signUp();
    const invite = await call<{ accept_url: string }>(owner, 'POST', `/workspaces/${slug}/invitations`, {
      email: viewer.email,
      role: 'viewer',
    });
    const token = invite.accept_url.split('/').at(-1);
    await call(viewer, 'POST', `/invitations/${token}/accept`);

    const { page } = viewer;
    await page.goto(boardUrl);
    await expectInColumn(page, 'WEB-1', 'in_progress');
    expect(await page.getByRole('button', { name: /Add a task to/ }).count()).toBe(0);
    expect(await card(page, 'WEB-1').getAttribute('aria-roledescription')).toBeNull();

    let moveRequests = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/move')) moveRequests += 1;
    });
    await dragWithMouse(page, card(page, 'WEB-3'), column(page, 'done'));
    await page.keyboard.press('Escape');
    await page.goto(boardUrl);
    await expectInColumn(page, 'WEB-3', 'todo');
    expect(moveRequests).toBe(0);
  });

  test('an archived project is read-only, with a banner; an unknown project is not found', async () => {
    const { page } = owner;
    await call(owner, 'POST', `/workspaces/${slug}/projects`, { key: 'OLD', name: 'Old site' });
    await call(owner, 'PATCH', `/workspaces/${slug}/projects/OLD`, { archived: true });
    await page.goto(`${webUrl}/w/${slug}/p/OLD`);
    await page.getByText('This project is archived, so its tasks are read-only.').waitFor();
    expect(await page.getByRole('button', { name: /Add a task to/ }).count()).toBe(0);

    expectedErrors.push(notFound);
    await page.goto(`${webUrl}/w/${slug}/p/NOPE`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });

  test('a card grabbed before drag and drop has loaded is lifted once it has, with the mouse or Space', async () => {
    const { page } = owner;
    // The board shows first and loads dnd-kit after; held back here, as a slow network would.
    const dndModule = /board-dnd/;
    const holdDnd = async () => {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(dndModule, async (route) => {
        await released;
        await route.continue();
      });
      return release;
    };

    let release = await holdDnd();
    await page.goto(boardUrl);
    await expectInColumn(page, 'WEB-3', 'todo');
    const keyboardMove = moved(page);
    await card(page, 'WEB-3').focus();
    await page.keyboard.press('Space');
    release();
    await page.getByText(/WEB-3 is over Todo/).waitFor({ state: 'attached' });
    await page.keyboard.press('ArrowRight');
    await page.getByText(/WEB-3 is over In progress/).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    expect((await keyboardMove).status()).toBe(200);
    await expectInColumn(page, 'WEB-3', 'in_progress');
    await page.unroute(dndModule);

    release = await holdDnd();
    await page.goto(boardUrl);
    await expectInColumn(page, 'WEB-3', 'in_progress');
    await card(page, 'WEB-3').evaluate((element) =>
      element.closest('section')?.scrollIntoView({ inline: 'start' }),
    );
    const from = await card(page, 'WEB-3').boundingBox();
    const to = await column(page, 'in_review').boundingBox();
    if (!from || !to) throw new Error('The card or the column is not on screen.');
    const mouseMove = moved(page);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    release();
    // Draggable once dnd-kit is here; the press that came first still holds the card.
    await expect
      .poll(() => card(page, 'WEB-3').getAttribute('aria-roledescription'), { timeout: KIT_LOAD_MS })
      .not.toBeNull();
    await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + 80, { steps: 20 });
    await page.mouse.up();
    expect((await mouseMove).status()).toBe(200);
    await expectInColumn(page, 'WEB-3', 'in_review');
    await page.unroute(dndModule);
  });

  test('the Done and Canceled icons show their tick and cross, in light and dark', async () => {
    for (const [title, status] of [
      ['Ship the footer', 'done'],
      ['Drop the blog', 'canceled'],
    ]) {
      await call(owner, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, { title, status });
    }
    // Three device pixels to a CSS pixel, so the 1.6 px strokes of the marks cover whole pixels.
    const context = await browser().newContext({
      viewport: { width: 1280, height: 860 },
      deviceScaleFactor: 3,
      storageState: await owner.context.storageState(),
    });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const icon = (view: string, status: string) =>
      view === 'board'
        ? column(page, status).getByRole('heading', { level: 2 }).locator('svg')
        : page.locator(`tbody svg[data-status="${status}"]`).first();

    for (const view of ['board', 'list']) {
      await page.goto(`${boardUrl}?view=${view}`);
      await page.locator('a[data-task-key]').first().waitFor();
      if (view === 'board') await dragAndDropLoaded(page);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await settled(page);
        for (const status of ['done', 'canceled']) {
          await icon(view, status).scrollIntoViewIfNeeded();
          // The mark against what is around it: WCAG's 3:1 for the parts of a graphic that carry meaning.
          expect(
            await contrastInside(icon(view, status)),
            `${status}, ${view}, ${colorScheme}`,
          ).toBeGreaterThanOrEqual(3);
        }
      }
    }
    expect(errors).toEqual([]);
    await context.close();

    await owner.page.goto(boardUrl);
    await dragAndDropLoaded(owner.page);
    await screenshots(owner.page, 'board-finished-columns', () =>
      column(owner.page, 'canceled').getByRole('heading', { level: 2 }).scrollIntoViewIfNeeded(),
    );
  });
});
