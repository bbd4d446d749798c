import { mkdir } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { watchApiCalls } from '../support/browser-api-calls.ts';
import { launchBrowser, watchPageErrors } from '../support/browser.ts';
import { freshEmail, signUpInBrowser } from '../support/web-accounts.ts';
import {
  callApiAs,
  expectNoSeriousAxeViolations as expectAccessible,
  saveScreenshots as screenshots,
  SCREENSHOTS,
} from '../support/web-e2e.ts';

const { webUrl, apiUrl } = inject('stack');

// Chromium logs every 4xx answer; these are the ones the tests provoke on purpose.
const takenSlug = /Failed to load resource: the server responded with a status of 409/;
const unknownWorkspace = /Failed to load resource: the server responded with a status of 404/;

let browser: Browser;

const callApi = <T>(page: Page, method: string, path: string, body?: unknown) =>
  callApiAs<T>(apiUrl, page, method, path, body);

beforeAll(async () => {
  browser = await launchBrowser();
  await mkdir(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser.close();
});

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe("a new user's first workspace", () => {
  const suffix = randomUUID().slice(0, 6);
  const workspaceName = `Northwind ${suffix}`;
  const slug = `northwind-${suffix}`;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let apiCalls: string[];

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    errors = watchPageErrors(page);
    apiCalls = watchApiCalls(page, apiUrl, errors).calls;
  });

  afterAll(async () => {
    // Every call was checked against openapi.yaml as it happened (a problem is an error above).
    expect(apiCalls.length).toBeGreaterThan(10);
    expect(errors.filter((error) => !takenSlug.test(error) && !unknownWorkspace.test(error))).toEqual([]);
    await context.close();
  });

  test('signing up lands on /new, which says what a workspace is for', async () => {
    await signUpInBrowser(page, webUrl, freshEmail(), 'workspace test password', 'Maya Patel');

    expect(new URL(page.url()).pathname).toBe('/new');
    await page.getByText("A workspace holds your team's projects").waitFor();
    await expectAccessible(page);
    await screenshots(page, 'new-workspace', () =>
      page.getByRole('heading', { name: 'Create a workspace' }).waitFor(),
    );
  });

  test('the slug follows the name, and creating the workspace opens its home', async () => {
    await page.getByLabel('Name', { exact: true }).fill(workspaceName);
    expect(await page.getByLabel('Slug').inputValue()).toBe(slug);

    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('heading', { name: workspaceName, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/w/${slug}`);
    await page.getByRole('button', { name: 'Create your first project' }).waitFor();
  });

  test("a taken slug shows the API's answer beside the field", async () => {
    await page.getByRole('button', { name: `Workspace: ${workspaceName}` }).click();
    await page.getByRole('menuitem', { name: /Owner/ }).waitFor();
    await page.getByRole('menuitem', { name: 'New workspace' }).click();
    await page.getByRole('heading', { name: 'Create a workspace' }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill(workspaceName);
    await page.getByRole('button', { name: 'Create workspace' }).click();

    const slugField = page.getByLabel('Slug');
    await page.getByText(`Another workspace already uses the slug "${slug}"`).waitFor();
    expect(await slugField.getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/new');
  });

  test('a project is created in the dialog, its key checked live and suggested from the name', async () => {
    // On /new no workspace is current: the menu shows, and is named, "Workspaces".
    await page.getByRole('button', { name: 'Workspaces', exact: true }).click();
    await page.getByRole('menuitem', { name: new RegExp(workspaceName) }).click();
    await page.getByRole('button', { name: 'Create your first project' }).click();

    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').fill('Website');
    expect(await dialog.getByLabel('Key').inputValue()).toBe('WEB');
    await dialog.getByLabel('Key').fill('web');
    await dialog
      .getByText('Key must be an upper-case letter followed by upper-case letters or digits.')
      .waitFor();
    await dialog.getByLabel('Key').fill('WEB');
    await dialog.getByRole('button', { name: 'Create project' }).click();

    await dialog.waitFor({ state: 'detached' });
    await page.waitForURL(`${webUrl}/w/${slug}/p/WEB`);
    await page.getByRole('navigation', { name: 'Projects' }).getByRole('link', { name: 'Website' }).waitFor();
  });

  test('the workspace menu and the account menu are named by what they show', async () => {
    await page.goto(`${webUrl}/w/${slug}`);
    await page.getByRole('heading', { name: workspaceName, level: 1 }).waitFor();
    await page.getByRole('banner').getByText('Maya Patel').waitFor();
    // axe's label-content-name-mismatch: the text a button shows is part of its name.
    await expectAccessible(page);
    const named = (name: string) => page.getByRole('button', { name, exact: true });
    expect(await named(`Workspace: ${workspaceName}`).count()).toBe(1);
    expect(await named('Account menu: Maya Patel').count()).toBe(1);

    // On a phone the account menu shows no name, and is named "Account menu:": the triggers are found by
    // their text.
    const menuTrigger = (text: string) =>
      page.locator('header button[aria-haspopup="menu"]', { hasText: text });
    for (const [trigger, screen] of [
      [menuTrigger('Workspace: '), 'workspace-menu'],
      [menuTrigger('Account menu'), 'account-menu'],
    ] as const) {
      const open = async () => {
        if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
        await page.getByRole('menu').waitFor();
      };
      await open();
      // Open, the menu leaves nothing focusable that the accessibility tree hides (aria-hidden-focus).
      await expectAccessible(page);
      await screenshots(page, screen, open);
      await page.keyboard.press('Escape');
    }
  });

  test('/ goes back to the workspace used last', async () => {
    await page.goto(webUrl);
    await page.getByRole('heading', { name: workspaceName, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/w/${slug}`);
  });

  test('the home shows the projects with their counts, my open tasks and recent activity', async () => {
    const me = await callApi<{ id: string }>(page, 'GET', '/me');
    await callApi(page, 'POST', `/workspaces/${slug}/projects`, { key: 'OPS', name: 'Operations' });
    const tasks = [
      { key: 'WEB', title: 'Fix the sign-in redirect', status: 'in_progress', priority: 'urgent', due: -1 },
      { key: 'WEB', title: 'Write the onboarding copy', status: 'todo', priority: 'medium', due: 3 },
      { key: 'WEB', title: 'Ship the pricing page', status: 'done', priority: 'high', due: null },
      { key: 'OPS', title: 'Rotate the database password', status: 'in_review', priority: 'high', due: 1 },
    ];
    for (const task of tasks) {
      await callApi(page, 'POST', `/workspaces/${slug}/projects/${task.key}/tasks`, {
        title: task.title,
        status: task.status,
        priority: task.priority,
        assignee_id: me.id,
        due_date: task.due === null ? null : daysFromNow(task.due),
      });
    }
    await page.reload();

    const website = page.getByRole('link', { name: /^WEB\s*Website/ });
    await website.getByText('2 open · 3 total').waitFor();
    await page
      .getByRole('link', { name: /^OPS\s*Operations/ })
      .getByText('1 open · 1 total')
      .waitFor();

    const myTasks = page.getByRole('region', { name: 'My open tasks' });
    await myTasks.getByRole('link', { name: /WEB-1/ }).waitFor();
    const listed = await myTasks.getByRole('link').allTextContents();
    expect(listed.map((text) => /[A-Z]+-\d+/.exec(text)?.[0])).toEqual(['WEB-1', 'OPS-1', 'WEB-2']);

    const activity = page.getByRole('region', { name: 'Recent activity' });
    await activity.getByText('Maya Patel created OPS-1 “Rotate the database password”').waitFor();
    await activity.getByText('Maya Patel created the project Website (WEB)').waitFor();

    await expectAccessible(page);
    await screenshots(page, 'workspace-home', () => myTasks.getByRole('link', { name: /WEB-1/ }).waitFor());

    await myTasks.getByRole('link', { name: /OPS-1/ }).click();
    await page.waitForURL(`${webUrl}/w/${slug}/p/OPS/t/1`);
  });

  test('on a phone the projects fold into the workspace menu', async () => {
    await page.goto(`${webUrl}/w/${slug}`);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.getByRole('navigation', { name: 'Projects' }).isVisible()).toBe(false);

    await page.getByRole('button', { name: `Workspace: ${workspaceName}` }).click();
    await page.getByRole('menuitem', { name: 'Operations' }).click();
    await page.waitForURL(`${webUrl}/w/${slug}/p/OPS`);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('archived projects wait behind a toggle and leave the header', async () => {
    await callApi(page, 'PATCH', `/workspaces/${slug}/projects/OPS`, { archived: true });
    await page.goto(`${webUrl}/w/${slug}`);
    await page.getByRole('link', { name: /^WEB\s*Website/ }).waitFor();
    expect(await page.getByRole('link', { name: /^OPS\s*Operations/ }).count()).toBe(0);
    const nav = page.getByRole('navigation', { name: 'Projects' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Website']);

    await page.getByRole('button', { name: 'Show archived projects (1)' }).click();
    await page.getByRole('link', { name: /^OPS\s*Archived\s*Operations/ }).waitFor();
  });

  test('an unknown workspace says so and offers a way back', async () => {
    await page.goto(`${webUrl}/w/no-such-${suffix}`);
    await page.getByRole('heading', { name: 'Workspace not found' }).waitFor();
    await page.getByRole('link', { name: 'Go to your workspaces' }).click();
    await page.getByRole('heading', { name: workspaceName, level: 1 }).waitFor();
  });

  test("a project's name typed as the dialog opens fills the name; Enter creates it and opens its board", async () => {
    await page.goto(`${webUrl}/w/${slug}`);
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.waitFor();

    // No click into the field first: the dialog puts focus there, and the space is a space.
    await page.keyboard.type('Roadmap ideas');
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Roadmap ideas');
    expect(await dialog.getByLabel('Key').inputValue()).toBe('RI');
    expect(await dialog.isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshots(page, 'new-project-dialog', () => dialog.waitFor());

    await page.keyboard.press('Enter');
    await page.waitForURL(`${webUrl}/w/${slug}/p/RI`);
    await page.getByRole('heading', { name: /Roadmap ideas/ }).waitFor();
    await dialog.waitFor({ state: 'detached' });
  });
});
