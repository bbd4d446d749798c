import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  boardCard as card,
  KIT_LOAD_MS,
  boardColumn as column,
  dragWithMouse,
  expectNoSeriousAxeViolations,
  saveScreenshots as screenshots,
  useBrowserPeople,
  type Person,
} from '../support/web-e2e.ts';
import { freshEmail } from '../support/web-accounts.ts';

// The settings and invitations work, E2E flows 2 and 3, on the settings tabs of s15a:
// General, Members, Invitations.

const { webUrl } = inject('stack');
const PASSWORD = 'settings test password';

const { signUp, call } = useBrowserPeople(PASSWORD);

const memberRow = (page: Page, email: string) => page.getByTestId('member-row').filter({ hasText: email });

describe('workspace settings: general, members and invitations', () => {
  let owner: Person;
  let teammate: Person;
  const slug = `settings-${Date.now().toString(36)}`;
  let acceptUrl = '';

  beforeAll(async () => {
    owner = await signUp();
    teammate = await signUp();
    await call(owner, 'POST', '/workspaces', { name: 'Settings test', slug });
    await call(owner, 'POST', `/workspaces/${slug}/projects`, { key: 'WEB', name: 'Website' });
    await call(owner, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, { title: 'Pricing page' });
  });

  afterAll(async () => {
    expect(owner.errors).toEqual([]);
    expect(teammate.errors).toEqual([]);
    await owner.context.close();
    await teammate.context.close();
  });

  test('the header menu leads to settings; the General tab checks the slug live', async () => {
    const { page } = owner;
    await page.goto(`${webUrl}/w/${slug}`);
    await page.getByRole('button', { name: 'Workspace: Settings test' }).click();
    await page.getByRole('menuitem', { name: 'Settings', exact: true }).click();
    await page.waitForURL(`${webUrl}/w/${slug}/settings/general`);
    await page.getByRole('heading', { name: 'General' }).waitFor();

    const slugField = page.getByRole('textbox', { name: 'Slug' });
    await slugField.fill('Not A Slug');
    await page.getByText('Slug may hold only a-z, 0-9 and single hyphens between them.').waitFor();
    await slugField.fill(`${slug}-x`);
    await page
      .getByTestId('slug-warning')
      .getByText(`/w/${slug} will stop working`, { exact: false })
      .waitFor();
    await slugField.fill(slug);
    await page.getByRole('checkbox', { name: 'Require two-factor authentication' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Require two-factor authentication' }).isDisabled()).toBe(
      true,
    );
    await page.getByRole('button', { name: 'Delete workspace…' }).waitFor();

    await expectNoSeriousAxeViolations(page);
    await screenshots(page, 'settings-general');
  });

  test('the owner invites the teammate by e-mail and gets the link; a second invitation is revoked', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Invitations' }).click();
    await page.getByText('No invitations yet').waitFor();

    await page.getByRole('textbox', { name: 'E-mail' }).fill(teammate.email);
    await page.getByRole('combobox', { name: 'Role' }).selectOption('member');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    acceptUrl = await page.getByTestId('invitation-accept-url').inputValue();
    expect(acceptUrl).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);

    const other = freshEmail();
    await page.getByRole('textbox', { name: 'E-mail' }).fill(other);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const otherRow = page.getByTestId('invitation-row').filter({ hasText: other });
    await otherRow.getByText('Pending').waitFor();
    await otherRow.getByRole('button', { name: `Revoke the invitation of ${other}` }).click();
    await page
      .getByRole('dialog', { name: 'Revoke this invitation?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await otherRow.getByText('Revoked').waitFor();
    await page
      .getByTestId('invitation-row')
      .filter({ hasText: teammate.email })
      .getByText(/Expires/)
      .waitFor();

    await expectNoSeriousAxeViolations(page);
    await screenshots(page, 'settings-invitations');
  });

  test('flow 2: the owner makes the teammate a viewer, and after a reload they can no longer drag', async () => {
    const token = acceptUrl.split('/').at(-1);
    await call(teammate, 'POST', `/invitations/${token}/accept`);
    const board = `${webUrl}/w/${slug}/p/WEB`;
    await teammate.page.goto(board);
    // A member's cards become draggable once drag and drop has loaded, after the board shows.
    await expect
      .poll(() => card(teammate.page, 'WEB-1').getAttribute('aria-roledescription'), { timeout: KIT_LOAD_MS })
      .not.toBeNull();

    const { page } = owner;
    await page.getByRole('link', { name: 'Members' }).click();
    const row = memberRow(page, teammate.email);
    await row.getByRole('button', { name: /Role of .*: Member/ }).click();
    await page.getByRole('menuitem', { name: 'Viewer' }).click();
    await row.getByRole('button', { name: /Role of .*: Viewer/ }).waitFor();

    await teammate.page.reload();
    await card(teammate.page, 'WEB-1').waitFor();
    expect(await card(teammate.page, 'WEB-1').getAttribute('aria-roledescription')).toBeNull();
    let moves = 0;
    teammate.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/move')) moves += 1;
    });
    await dragWithMouse(teammate.page, card(teammate.page, 'WEB-1'), column(teammate.page, 'done'));
    await teammate.page.keyboard.press('Escape');
    expect(moves).toBe(0);
    // Hovered and pressed, the viewer's card still never became draggable.
    expect(await card(teammate.page, 'WEB-1').getAttribute('aria-roledescription')).toBeNull();
  });

  test('the Members tab has no serious accessibility problems; screenshots', async () => {
    const { page } = owner;
    await page.reload();
    await memberRow(page, teammate.email).waitFor();
    await expectNoSeriousAxeViolations(page);
    await screenshots(page, 'settings-members');
  });

  test('flow 3: the last owner is told why they cannot leave, makes the teammate owner, and then can', async () => {
    const { page } = owner;
    await page.getByTestId('last-owner-note').waitFor();
    await memberRow(page, owner.email).getByRole('button', { name: 'Leave workspace' }).click();
    const refusal = page.getByRole('dialog', { name: 'Leave this workspace?' });
    await refusal.getByText('Make someone else an owner first', { exact: false }).waitFor();
    await refusal.getByRole('button', { name: 'Close', exact: true }).first().click();
    await refusal.waitFor({ state: 'detached' });

    const row = memberRow(page, teammate.email);
    await row.getByRole('button', { name: /Role of .*: Viewer/ }).click();
    await page.getByRole('menuitem', { name: 'Owner' }).click();
    await row.getByRole('button', { name: /Role of .*: Owner/ }).waitFor();
    await page.getByTestId('last-owner-note').waitFor({ state: 'detached' });

    await memberRow(page, owner.email).getByRole('button', { name: 'Leave workspace' }).click();
    await page
      .getByRole('dialog', { name: 'Leave this workspace?' })
      .getByRole('button', { name: 'Leave workspace' })
      .click();
    await page.waitForURL((url) => !url.pathname.startsWith(`/w/${slug}`));

    const members = await call<{ data: { email: string; role: string }[] }>(
      teammate,
      'GET',
      `/workspaces/${slug}/members`,
    );
    expect(members.data.map(({ email, role }) => ({ email, role }))).toEqual([
      { email: teammate.email, role: 'owner' },
    ]);
  });
});
