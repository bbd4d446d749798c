/**
 * The usability review, item 6: a 1280 px screen shows the whole board — the open columns narrower, Done and
 * Canceled folded by default with their counts, a one-line card about 56 px high with no mark for "no
 * priority".
 *
 * The usability review, item 2: after a move, the cards of every column sit one under the other, a gap apart
 * — no two overlap, none leaves a hole — for the person who moved the card and for a colleague watching live,
 * without a reload. Cards of one, two and four lines (and with labels) are moved across and within columns,
 * with the keyboard, the mouse and the API.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import {
  boardCard as card,
  boardColumn as column,
  callApiAs,
  dragWithMouse,
  KIT_LOAD_MS,
  saveScreenshots,
  signUpPerson,
  type Person,
} from '../support/web-e2e.ts';

const { webUrl, apiUrl } = inject('stack');
const PASSWORD = 'layout test password';
/** The gap between two cards (column-cards.ts), and what rounding may add to it. */
const CARD_GAP = 8;
const TOLERANCE = 1.5;
const LIVE = { timeout: 5_000 };

interface Task {
  id: string;
  key: string;
  version: number;
}

let browser: Browser;
let ada: Person;
let bob: Person;
const slug = `layout-${Date.now().toString(36)}`;
const tasks = new Map<string, Task>();

const call = <T>(person: Person, method: string, path: string, body?: unknown) =>
  callApiAs<T>(apiUrl, person.page, method, path, body);

const LONG =
  'Rewrite the onboarding e-mails so that a new workspace owner knows what to do on day one, day three and day seven';
const MEDIUM = 'Move the marketing site to the new host and keep every old link working';

beforeAll(async () => {
  browser = await launchBrowser();
  ada = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  bob = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  await call(ada, 'POST', '/workspaces', { name: 'Layout test', slug });
  await call(ada, 'POST', `/workspaces/${slug}/projects`, { key: 'WEB', name: 'Website' });
  const label = await call<{ id: string }>(ada, 'POST', `/workspaces/${slug}/labels`, {
    name: 'design',
    color: '#8b5cf6',
  });
  const titles = ['Pricing', LONG, 'Redirects', MEDIUM, 'Footer', LONG, 'Favicon', 'Cookie banner'];
  for (const [index, title] of titles.entries()) {
    const labels = index % 3 === 0 ? [label.id] : [];
    const task = await call<Task>(ada, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
      title,
      status: index < 6 ? 'todo' : 'in_progress',
      label_ids: labels,
    });
    tasks.set(task.key, task);
  }
  for (const [title, status] of [
    ['Launch the beta', 'done'],
    ['Write the changelog', 'done'],
    ['Drop the old blog', 'canceled'],
  ])
    await call(ada, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, { title, status });
  const invite = await call<{ accept_url: string }>(ada, 'POST', `/workspaces/${slug}/invitations`, {
    email: bob.email,
    role: 'member',
  });
  await call(bob, 'POST', `/invitations/${invite.accept_url.split('/').at(-1) ?? ''}/accept`);
}, 120_000);

afterAll(async () => {
  for (const person of [ada, bob]) {
    if (!person) continue;
    expect(person.errors).toEqual([]);
    await person.context.close();
  }
  await browser?.close();
});

interface Box {
  key: string;
  top: number;
  bottom: number;
}

/** Every card's box on the page, by column, top to bottom. */
function cardBoxes(page: Page): Promise<Record<string, Box[]>> {
  return page.evaluate(() => {
    // Runs in the page; the tests' types have no DOM.
    interface Element {
      getAttribute: (name: string) => string | null;
      getBoundingClientRect: () => { top: number; bottom: number };
      querySelectorAll: (selector: string) => ArrayLike<Element>;
    }
    const doc = (globalThis as unknown as { document: Element }).document;
    const columns: Record<string, { key: string; top: number; bottom: number }[]> = {};
    for (const section of Array.from(doc.querySelectorAll('[data-column]'))) {
      columns[section.getAttribute('data-column') ?? ''] = Array.from(
        section.querySelectorAll('a[data-task-key]'),
      )
        .map((card) => {
          const box = card.getBoundingClientRect();
          return { key: card.getAttribute('data-task-key') ?? '', top: box.top, bottom: box.bottom };
        })
        .sort((a, b) => a.top - b.top);
    }
    return columns;
  });
}

/** Where two cards of a column overlap, or leave more than the gap between them. */
function layoutFaults(columns: Record<string, Box[]>): string[] {
  const faults: string[] = [];
  for (const [status, cards] of Object.entries(columns)) {
    for (const [index, below] of cards.entries()) {
      const above = cards[index - 1];
      if (!above) continue;
      const space = below.top - above.bottom;
      if (space < CARD_GAP - TOLERANCE)
        faults.push(`${status}: ${below.key} overlaps ${above.key} (${space}px)`);
      if (space > CARD_GAP + TOLERANCE) faults.push(`${status}: a ${space}px hole above ${below.key}`);
    }
  }
  return faults;
}

/** Waits for the board to stand still (no card moving for a while), then answers its layout's faults. */
async function faultsOnceStill(page: Page): Promise<string[]> {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = JSON.stringify(await cardBoxes(page));
        const still = now === last;
        last = now;
        return still;
      },
      { interval: 250, timeout: 10_000 },
    )
    .toBe(true);
  return layoutFaults(JSON.parse(last) as Record<string, Box[]>);
}

async function expectTidy(...people: Person[]) {
  for (const person of people) expect(await faultsOnceStill(person.page)).toEqual([]);
}

const moved = (page: Page) =>
  page.waitForResponse((r) => r.url().includes('/move') && r.request().method() === 'POST');

describe('cards after a move', () => {
  test('both boards start tidy, with cards of different heights', async () => {
    for (const person of [ada, bob]) {
      await person.page.goto(`${webUrl}/w/${slug}/p/WEB`);
      await card(person.page, 'WEB-8').waitFor();
    }
    // Drag and drop (and the virtualizer) have taken over the columns.
    await expect
      .poll(() => card(ada.page, 'WEB-1').getAttribute('aria-roledescription'), { timeout: KIT_LOAD_MS })
      .not.toBeNull();
    const heights = await card(ada.page, 'WEB-2').evaluate((a) => a.getBoundingClientRect().height);
    const short = await card(ada.page, 'WEB-3').evaluate((a) => a.getBoundingClientRect().height);
    expect(heights).toBeGreaterThan(short + 20);
    await expectTidy(ada, bob);
  });

  test('a tall card moved with the keyboard to another column', async () => {
    const { page } = ada;
    const done = moved(page);
    await card(page, 'WEB-2').focus();
    await page.keyboard.press('Space');
    await page.getByText(/WEB-2 is over Todo/).waitFor({ state: 'attached' });
    await page.keyboard.press('ArrowRight');
    await page.getByText(/WEB-2 is over In progress/).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    expect((await done).status()).toBe(200);
    await column(bob.page, 'in_progress').locator('a[data-task-key="WEB-2"]').waitFor(LIVE);
    await expectTidy(ada, bob);
  });

  test('a short card dragged with the mouse to the top of another column', async () => {
    const { page } = ada;
    const done = moved(page);
    await dragWithMouse(page, card(page, 'WEB-3'), card(page, 'WEB-7'));
    expect((await done).status()).toBe(200);
    await column(bob.page, 'in_progress').locator('a[data-task-key="WEB-3"]').waitFor(LIVE);
    await expectTidy(ada, bob);
  });

  test('the last card of a column moved up with the keyboard, within it', async () => {
    const { page } = ada;
    const done = moved(page);
    await card(page, 'WEB-6').focus();
    await page.keyboard.press('Space');
    await page.getByText(/WEB-6 is over Todo/).waitFor({ state: 'attached' });
    for (let step = 0; step < 3; step++) await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    expect((await done).status()).toBe(200);
    await expectTidy(ada, bob);
  });

  test('tall and short cards moved through the API, one after the other with no pause', async () => {
    const moves: [string, Record<string, unknown>][] = [
      ['WEB-4', { status: 'in_progress', before_id: tasks.get('WEB-7')?.id }],
      ['WEB-8', { status: 'todo' }],
      ['WEB-2', { status: 'todo', after_id: tasks.get('WEB-1')?.id }],
      ['WEB-5', { status: 'in_review' }],
    ];
    for (const [key, to] of moves) {
      const task = await call<Task>(ada, 'GET', `/workspaces/${slug}/tasks/${key}`);
      await call(ada, 'POST', `/tasks/${task.id}/move`, to);
    }
    for (const person of [ada, bob]) {
      await column(person.page, 'in_review').locator('a[data-task-key="WEB-5"]').waitFor(LIVE);
      await column(person.page, 'todo').locator('a[data-task-key="WEB-2"]').waitFor(LIVE);
    }
    await expectTidy(ada, bob);
  });
});

describe('a 1280 px screen', () => {
  const boardUrl = () => `${webUrl}/w/${slug}/p/WEB`;
  const columnBoxes = (page: Page) =>
    page.locator('[data-column]').evaluateAll((sections) =>
      sections.map((section) => {
        const box = (
          section as unknown as { getBoundingClientRect: () => { left: number; right: number } }
        ).getBoundingClientRect();
        return { left: box.left, right: box.right };
      }),
    );

  test('shows all six columns, Done and Canceled folded with their counts', async () => {
    const { page } = ada;
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(boardUrl());
    await card(page, 'WEB-1').waitFor();
    const boxes = await columnBoxes(page);
    expect(boxes).toHaveLength(6);
    for (const box of boxes) expect(box.right).toBeLessThanOrEqual(1280);
    for (const [status, count] of [
      ['done', '2'],
      ['canceled', '1'],
    ] as const) {
      await expect.poll(() => column(page, status).getByTestId(`count-${status}`).textContent()).toBe(count);
      expect(await column(page, status).getAttribute('data-collapsed')).not.toBeNull();
      expect(await column(page, status).locator('a[data-task-key]').count()).toBe(0);
    }
    await column(page, 'done').getByRole('button', { name: 'Done 2', expanded: false }).waitFor();
    await saveScreenshots(page, 'board-folded', () => card(page, 'WEB-1').waitFor());
  });

  test('a one-line card without labels or due date is about 56 px, with no mark for no priority', async () => {
    const { page } = ada;
    const redirects = card(page, 'WEB-3');
    const height = await redirects.evaluate((a) => a.getBoundingClientRect().height);
    expect(height).toBeGreaterThanOrEqual(52);
    expect(height).toBeLessThanOrEqual(60);
    expect(await redirects.getByRole('img', { name: 'No priority' }).count()).toBe(0);
    expect(await redirects.textContent()).not.toContain('---');
  });

  test('a folded column opens with a click and stays open after a reload, and folds again', async () => {
    const { page } = ada;
    await column(page, 'done').getByRole('button', { name: 'Done 2' }).click();
    await column(page, 'done').locator('a[data-task-key]').first().waitFor();
    await page.reload();
    await column(page, 'done').locator('a[data-task-key]').first().waitFor();
    expect(await column(page, 'done').getAttribute('data-collapsed')).toBeNull();
    await saveScreenshots(page, 'board-done-open', () => card(page, 'WEB-1').waitFor());
    await column(page, 'done').getByRole('button', { name: 'Collapse Done' }).click();
    await column(page, 'done').getByRole('button', { name: 'Done 2', expanded: false }).waitFor();
    expect(await column(page, 'done').locator('a[data-task-key]').count()).toBe(0);
  });

  test('a card dropped on a folded column moves there, and its count goes up', async () => {
    const { page } = ada;
    await expect
      .poll(() => card(page, 'WEB-1').getAttribute('aria-roledescription'), { timeout: KIT_LOAD_MS })
      .not.toBeNull();
    const done = moved(page);
    await dragWithMouse(page, card(page, 'WEB-1'), column(page, 'canceled'));
    expect((await done).status()).toBe(200);
    await expect.poll(() => column(page, 'canceled').getByTestId('count-canceled').textContent()).toBe('2');
    const task = await call<{ status: string }>(ada, 'GET', `/workspaces/${slug}/tasks/WEB-1`);
    expect(task.status).toBe('canceled');
    await card(page, 'WEB-1').waitFor({ state: 'detached' });
  });
});

describe('the list view', () => {
  test('has a labels column, and fits a 390 px phone without cutting a column off', async () => {
    const { page } = ada;
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(`${webUrl}/w/${slug}/p/WEB?view=list`);
    const row = page.getByRole('row').filter({ has: page.locator('a[data-task-key="WEB-4"]') });
    await row.waitFor();
    await page.getByRole('columnheader', { name: 'Labels' }).waitFor();
    expect(await row.textContent()).toContain('design');

    await page.setViewportSize({ width: 390, height: 844 });
    await row.waitFor();
    const overflow = await page.locator('table').evaluate((table) => {
      const box = (table as unknown as { parentElement: { scrollWidth: number; clientWidth: number } })
        .parentElement;
      return box.scrollWidth - box.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    // The status is an icon there, still named for screen readers (after the checkbox, the key and the title).
    expect(await row.getByRole('cell').nth(3).textContent()).toMatch(/In progress|Todo|In review/);
    await saveScreenshots(page, 'list-view', () => row.waitFor());
  });
});

describe('the keyboard while the board takes its kit', () => {
  test('focus stays on a card as the arrow keys go, with the CPU slowed 6×', async () => {
    const { page } = ada;
    await page.setViewportSize({ width: 1280, height: 860 });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    try {
      await page.goto(`${webUrl}/w/${slug}/p/WEB`);
      const first = column(page, 'todo').locator('a[data-task-key]').first();
      await first.waitFor();
      await first.focus();
      const focused = () =>
        page.evaluate(() =>
          (
            globalThis as unknown as {
              document: { activeElement: { getAttribute(n: string): string | null } };
            }
          ).document.activeElement.getAttribute('data-task-key'),
        );
      // Down and up through the column, then across and back, until the kit has come, and a little more.
      const keys = ['ArrowDown', 'ArrowDown', 'ArrowUp', 'ArrowRight', 'ArrowLeft', 'ArrowUp'];
      let kitCame = 0;
      for (let step = 0; step < 60 && kitCame < 6; step++) {
        await page.keyboard.press(keys[step % keys.length] ?? 'ArrowDown');
        await page.waitForTimeout(50);
        expect(await focused(), `focus after step ${step}`).not.toBeNull();
        if ((await first.getAttribute('aria-roledescription')) !== null) kitCame += 1;
      }
      expect(kitCame).toBeGreaterThan(0);
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
    }
  });
});
