import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { NewWorkspaceForm } from './new-workspace-form.tsx';

function apiAnswers(status: number, body: object) {
  fetchMock.mockImplementation(() => Promise.resolve(apiAnswer(status, body)));
  return fetchMock;
}

const WORKSPACE = {
  object: 'workspace',
  id: '2b7e4c1a-5d3f-4e8a-9b6c-1f0e2d3c4b5a',
  slug: 'acme-design',
  name: 'Acme Design',
  require_mfa: false,
  role: 'owner',
  created_by: '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10',
  version: 1,
  created_at: '2026-11-22T09:00:00.000Z',
  updated_at: '2026-11-22T09:00:00.000Z',
};

function slugField() {
  return screen.getByLabelText<HTMLInputElement>('Slug');
}

describe('NewWorkspaceForm', () => {
  it('makes the slug from the name as it is typed', async () => {
    apiAnswers(500, {});
    const { user } = renderWithQueries(<NewWorkspaceForm onCreated={vi.fn()} />);

    await user.type(screen.getByLabelText('Name'), 'Acme Design Café!');

    expect(slugField().value).toBe('acme-design-cafe');
  });

  it('stops following the name once the slug is edited', async () => {
    apiAnswers(500, {});
    const { user } = renderWithQueries(<NewWorkspaceForm onCreated={vi.fn()} />);

    await user.type(screen.getByLabelText('Name'), 'Acme');
    await user.clear(slugField());
    await user.type(slugField(), 'acme-hq');
    await user.type(screen.getByLabelText('Name'), ' Design');

    expect(slugField().value).toBe('acme-hq');
  });

  it("checks the slug with the API's rules as it is typed, and sends nothing that breaks them", async () => {
    const answered = apiAnswers(500, {});
    const { user } = renderWithQueries(<NewWorkspaceForm onCreated={vi.fn()} />);

    await user.type(slugField(), 'ab');
    expect(describedBy(slugField())).toContain('Slug must be at least 3 characters.');
    expect(slugField().getAttribute('aria-invalid')).toBe('true');

    await user.clear(slugField());
    await user.type(slugField(), 'new');
    expect(describedBy(slugField())).toContain('Slug is reserved; choose another.');

    await user.clear(slugField());
    await user.type(slugField(), 'acme--hq');
    expect(describedBy(slugField())).toContain(
      'Slug may hold only a-z, 0-9 and single hyphens between them.',
    );

    await user.click(screen.getByRole('button', { name: 'Create workspace' }));
    expect(describedBy(screen.getByLabelText('Name'))).toContain('Name must not be empty.');
    expect(answered).not.toHaveBeenCalled();
  });

  it("shows the API's answer for a taken slug beside the slug", async () => {
    apiAnswers(409, {
      type: 'https://tasklane.dev/problems/slug_taken',
      title: 'Slug taken',
      status: 409,
      code: 'slug_taken',
      detail: 'Another workspace already uses the slug "acme"; choose another.',
      request_id: 'req-1',
      errors: [{ path: 'body.slug', code: 'slug_taken', message: 'is already taken' }],
    });
    const onCreated = vi.fn();
    const { user } = renderWithQueries(<NewWorkspaceForm onCreated={onCreated} />);

    await user.type(screen.getByLabelText('Name'), 'Acme');
    await user.click(screen.getByRole('button', { name: 'Create workspace' }));

    await vi.waitFor(() =>
      expect(describedBy(slugField())).toContain(
        'Another workspace already uses the slug "acme"; choose another.',
      ),
    );
    expect(onCreated).not.toHaveBeenCalled();
  });

  it('creates the workspace and hands it on', async () => {
    const answered = apiAnswers(201, WORKSPACE);
    const onCreated = vi.fn();
    const { user } = renderWithQueries(<NewWorkspaceForm onCreated={onCreated} />);

    await user.type(screen.getByLabelText('Name'), '  Acme Design ');
    await user.click(screen.getByRole('button', { name: 'Create workspace' }));

    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledWith(WORKSPACE));
    const request = answered.mock.calls[0]?.[0] as Request;
    expect(request.method).toBe('POST');
    expect(await request.json()).toEqual({ name: 'Acme Design', slug: 'acme-design' });
  });
});

/** The text a screen reader reads after the field's name: its hint and error, as aria-describedby says. */
function describedBy(field: HTMLElement): string {
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}
