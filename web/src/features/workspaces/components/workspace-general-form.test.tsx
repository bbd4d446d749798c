import type { components } from '@api-spec/schema.d.ts';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { RequireMfaSetting } from './require-mfa-setting.tsx';
import { WorkspaceGeneralForm } from './workspace-general-form.tsx';

type Workspace = components['schemas']['Workspace'];

const acme: Workspace = {
  object: 'workspace',
  id: '00000000-0000-4000-8000-000000000001',
  slug: 'acme',
  name: 'Acme',
  require_mfa: false,
  role: 'owner',
  created_by: null,
  version: 7,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
};

describe('WorkspaceGeneralForm', () => {
  it('warns that old links break, checks the slug live, and sends only what changed with If-Match', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(apiAnswer(200, { ...acme, slug: 'acme-inc', version: 8 })),
    );
    const onSaved = vi.fn();
    const { user } = renderWithQueries(<WorkspaceGeneralForm workspace={acme} onSaved={onSaved} />);
    const slug = screen.getByLabelText('Slug');

    await user.type(slug, '-');
    expect(slug.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('slug-warning').textContent).toContain('/w/acme will stop working');

    await user.type(slug, 'inc');
    expect(slug.getAttribute('aria-invalid')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    const request = fetchMock.mock.calls[0]?.[0] as Request;
    expect(request.headers.get('If-Match')).toBe('"7"');
    expect(await request.json()).toEqual({ slug: 'acme-inc' });
  });

  it("shows the API's slug_taken beside the slug", async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        apiAnswer(409, {
          type: 'https://tasklane.dev/problems/slug_taken',
          title: 'Slug taken',
          status: 409,
          code: 'slug_taken',
          detail: 'Another workspace already uses the slug "globex"; choose another.',
          request_id: 'req-1',
        }),
      ),
    );
    const { user } = renderWithQueries(<WorkspaceGeneralForm workspace={acme} onSaved={vi.fn()} />);
    const slug = screen.getByLabelText('Slug');
    await user.clear(slug);
    await user.type(slug, 'globex');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await screen.findByText(/already uses the slug "globex"/);
    expect(slug.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('RequireMfaSetting', () => {
  it('is offered only from an aal2 session, and says why otherwise', () => {
    const { unmount } = renderWithQueries(
      <RequireMfaSetting workspace={acme} editable sessionAtAal2={false} />,
    );
    const box = screen.getByRole('checkbox', { name: 'Require two-factor authentication' });
    expect((box as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText(/set up an authenticator app in your account/)).toBeTruthy();
    unmount();

    renderWithQueries(<RequireMfaSetting workspace={acme} editable sessionAtAal2 />);
    expect(
      (screen.getByRole('checkbox', { name: 'Require two-factor authentication' }) as HTMLInputElement)
        .disabled,
    ).toBe(false);
  });
});
