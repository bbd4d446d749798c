import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { CreateProjectDialog } from './create-project-dialog.tsx';

function apiAnswers(status: number, body: object) {
  fetchMock.mockImplementation(() => Promise.resolve(apiAnswer(status, body)));
  return fetchMock;
}

function renderDialog(onCreated = vi.fn()) {
  const onOpenChange = vi.fn();
  const rendered = renderWithQueries(
    <CreateProjectDialog slug="acme" open onOpenChange={onOpenChange} onCreated={onCreated} />,
  );
  const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label);
  return { ...rendered, field, onCreated, onOpenChange };
}

describe('CreateProjectDialog', () => {
  it('opens with focus in the name, so a name typed at once (spaces too) fills it', async () => {
    apiAnswers(500, {});
    const { user, field, onOpenChange } = renderDialog();

    await user.keyboard('Roadmap ideas');
    expect(field('Name').value).toBe('Roadmap ideas');
    expect(field('Key').value).toBe('RI');
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('suggests the key from the name until the key is edited', async () => {
    apiAnswers(500, {});
    const { user, field } = renderDialog();

    await user.type(field('Name'), 'Web platform');
    expect(field('Key').value).toBe('WP');

    await user.clear(field('Key'));
    await user.type(field('Key'), 'WEB');
    await user.type(field('Name'), ' team');
    expect(field('Key').value).toBe('WEB');
  });

  it("checks the key with the API's rules as it is typed, and sends nothing that breaks them", async () => {
    const answered = apiAnswers(500, {});
    const { user, field } = renderDialog();

    await user.type(field('Key'), 'eng');
    expect(field('Key').getAttribute('aria-invalid')).toBe('true');
    expect(
      screen.getByText('Key must be an upper-case letter followed by upper-case letters or digits.'),
    ).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Create project' }));
    expect(screen.getByText('Name must not be empty.')).toBeTruthy();
    expect(answered).not.toHaveBeenCalled();
  });

  it("shows the API's answer for a key in use beside the key", async () => {
    apiAnswers(409, {
      type: 'https://tasklane.dev/problems/project_key_taken',
      title: 'Project key taken',
      status: 409,
      code: 'project_key_taken',
      detail: 'Another project of this workspace already has the key "ENG".',
      request_id: 'req-1',
    });
    const { user, field, onCreated } = renderDialog();

    await user.type(field('Name'), 'Engineering');
    await user.click(screen.getByRole('button', { name: 'Create project' }));

    await screen.findByText('Another project of this workspace already has the key "ENG".');
    expect(field('Key').getAttribute('aria-invalid')).toBe('true');
    expect(onCreated).not.toHaveBeenCalled();
  });
});
