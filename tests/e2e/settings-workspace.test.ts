import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
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

// Chromium logs every 4xx answer; the tests provoke this one on purpose (a label name in use).
const labelExists = /Failed to load resource: the server responded with a status of 409/;

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

interface Task {
  id: string;
  key: string;
}

describe("an admin runs the workspace's labels, projects and export", () => {
  const slug = `settings-${randomUUID().slice(0, 6)}`;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let apiCalls: string[];
  const taskKeys: string[] = [];
  let firstTask: Task;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    errors = watchPageErrors(page);
    apiCalls = watchApiCalls(page, apiUrl, errors).calls;
    await signUpInBrowser(page, webUrl, freshEmail(), 'settings test password', 'Ada Admin');
    await callApi(page, 'POST', '/workspaces', { name: 'Settings test', slug });
    for (const key of ['WEB', 'OPS']) {
      await callApi(page, 'POST', `/workspaces/${slug}/projects`, { key, name: `${key} project` });
      for (let n = 1; n <= 6; n += 1) {
        const task = await callApi<Task>(page, 'POST', `/workspaces/${slug}/projects/${key}/tasks`, {
          title: `${key} task ${n}`,
        });
        taskKeys.push(task.key);
        firstTask ??= task;
      }
    }
  });

  afterAll(async () => {
    // Every call was checked against openapi.yaml as it happened (a problem is an error above).
    expect(apiCalls.length).toBeGreaterThan(5);
    expect(errors.filter((error) => !labelExists.test(error))).toEqual([]);
    await context.close();
  });

  test('Labels: create, rename, recolor by hex, and delete saying how many tasks use it', async () => {
    await page.goto(`${webUrl}/w/${slug}/settings/labels`);
    await page.getByText('No labels yet. Create one above').waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Bug');
    await page.getByRole('radio', { name: 'Red' }).check();
    await page.getByRole('button', { name: 'Create label' }).click();
    await page.getByRole('button', { name: 'Edit Bug' }).waitFor();

    // The same name whatever the case: the API's answer shows beside the field.
    await page.getByLabel('Name', { exact: true }).fill('bug');
    await page.getByRole('button', { name: 'Create label' }).click();
    await page.getByText(/already has a label/).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Feature');
    await page.getByRole('button', { name: 'Create label' }).click();
    await page.getByRole('button', { name: 'Edit Feature' }).waitFor();

    await page.getByRole('button', { name: 'Edit Bug' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit label' });
    await edit.getByLabel('Name').fill('Defect');
    await edit.getByLabel('Hex color').fill('#0E8A16');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByText('#0e8a16').waitFor();

    const labels = await callApi<{ data: { id: string; name: string }[] }>(
      page,
      'GET',
      `/workspaces/${slug}/labels`,
    );
    const defect = labels.data.find((label) => label.name === 'Defect');
    await callApi(page, 'PATCH', `/tasks/${firstTask.id}`, { label_ids: [defect?.id] });

    await expectAccessible(page);
    await screenshots(page, 'settings-labels', () =>
      page.getByRole('button', { name: 'Edit Defect' }).waitFor(),
    );

    await page.getByRole('button', { name: 'Delete Defect' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the label Defect?' });
    await confirm.getByText('1 task uses this label.').waitFor();
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Delete label' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit Defect' }).waitFor({ state: 'detached' });
  });

  test('Projects: rename, change the key with its warning, archive, unarchive, delete after typing the key', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('button', { name: 'Edit WEB' }).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'settings-projects', () =>
      page.getByRole('button', { name: 'Edit WEB' }).waitFor(),
    );

    await page.getByRole('button', { name: 'Edit WEB' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit project' });
    await edit.getByLabel('Name').fill('Website');
    await edit.getByLabel('Key').fill('SITE');
    await edit.getByRole('note').getByText('WEB-1 becomes SITE-1').waitFor();
    await expectAccessible(page);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit SITE' }).waitFor();
    const moved = await callApi<Task>(page, 'GET', `/workspaces/${slug}/tasks/SITE-1`);
    expect(moved.id).toBe(firstTask.id);
    for (const [index, key] of taskKeys.entries()) taskKeys[index] = key.replace(/^WEB-/, 'SITE-');

    await page.getByRole('button', { name: 'Archive OPS' }).click();
    await page.getByRole('button', { name: 'Unarchive OPS' }).click();
    await page.getByRole('button', { name: 'Archive OPS' }).waitFor();

    await callApi(page, 'POST', `/workspaces/${slug}/projects`, { key: 'TMP', name: 'Scratch' });
    await page.reload();
    await page.getByRole('button', { name: 'Delete TMP' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Scratch?' });
    await confirm.getByLabel('Type TMP to confirm').fill('TMP');
    await confirm.getByRole('button', { name: 'Delete project' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete TMP' }).waitFor({ state: 'detached' });
  });

  test('Export: the downloaded JSON parses and holds every task', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Export' }).click();
    const button = page.getByRole('button', { name: 'Export workspace' });
    await expectAccessible(page);

    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(`${slug}-export.json`);
    const exported = JSON.parse(await readFile((await download.path()) ?? '', 'utf8')) as {
      tasks: { key: string }[];
    };
    expect(exported.tasks.map((task) => task.key).sort()).toEqual([...taskKeys].sort());
    await page.getByText(`Exported ${taskKeys.length} tasks from 2 projects`).waitFor();

    await expectAccessible(page);
    await screenshots(page, 'settings-export', () =>
      page.getByRole('button', { name: /Save .* again/ }).waitFor(),
    );
  });
});
