import type { components } from '@api-spec/schema.d.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { LabelSettings } from './label-settings.tsx';

type Label = components['schemas']['Label'];

const bug: Label = {
  object: 'label',
  id: '5c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  workspace_id: '0b7e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  name: 'Bug',
  color: '#e5484d',
  created_by: '1b7e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  version: 3,
  created_at: '2026-11-22T09:10:00.000Z',
  updated_at: '2026-11-22T09:10:00.000Z',
};

/** Answers the label list with `labels`, and any other request with `other` (recording it). */
function answer(labels: Label[], other: () => Response = () => apiAnswer(500, {})) {
  const sent: Request[] = [];
  fetchMock.mockImplementation((input) => {
    const request = input as Request;
    if (request.method === 'GET' && new URL(request.url).pathname.endsWith('/labels')) {
      return Promise.resolve(apiAnswer(200, { object: 'list', data: labels, next_cursor: null }));
    }
    sent.push(request);
    return Promise.resolve(other());
  });
  return sent;
}

function renderSettings(role: { canCreate: boolean; canManage: boolean }) {
  return renderWithQueries(<LabelSettings slug="acme" {...role} usage={() => '3 tasks use this label.'} />);
}

const admin = { canCreate: true, canManage: true };

describe('LabelSettings', () => {
  it('says what to do when there are no labels', async () => {
    answer([]);
    renderSettings(admin);
    expect(await screen.findByText(/No labels yet. Create one above/)).toBeTruthy();
  });

  it('deletes a label after saying how many tasks use it, with If-Match', async () => {
    const sent = answer([bug], () => new Response(null, { status: 204 }));
    const { user } = renderSettings(admin);

    await user.click(await screen.findByRole('button', { name: 'Delete Bug' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the label Bug?' });
    expect(within(dialog).getByText('3 tasks use this label.')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Delete label' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('DELETE');
    expect(new URL(sent[0]?.url ?? '').pathname).toMatch(/\/v1\/workspaces\/acme\/labels\/5c3e2a10-/);
    expect(sent[0]?.headers.get('If-Match')).toBe('"3"');
  });

  it('recolors with a typed hex code, checked as it is typed, and sends only the colour', async () => {
    const sent = answer([bug], () => apiAnswer(200, { ...bug, color: '#123abc', version: 4 }));
    const { user } = renderSettings(admin);

    await user.click(await screen.findByRole('button', { name: 'Edit Bug' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit label' });
    const hex = within(dialog).getByLabelText('Hex color');
    await user.clear(hex);
    await user.type(hex, '#12');
    expect(within(dialog).getByText('Color must be a color written #rrggbb.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(sent).toHaveLength(0);

    await user.type(hex, '3ABC');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent[0]?.method).toBe('PATCH');
    expect(await sent[0]?.json()).toEqual({ color: '#123abc' });
  });

  it('opens the edit dialog with focus in the name and the delete dialog with focus on Cancel', async () => {
    const sent = answer([bug]);
    const { user } = renderSettings(admin);

    await user.click(await screen.findByRole('button', { name: 'Edit Bug' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit label' });
    expect(document.activeElement).toBe(within(edit).getByLabelText('Name'));
    await user.keyboard('Defect');
    expect(within(edit).getByLabelText<HTMLInputElement>('Name').value).toBe('Defect');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Delete Bug' }));
    const remove = await screen.findByRole('dialog', { name: 'Delete the label Bug?' });
    expect(document.activeElement).toBe(within(remove).getByRole('button', { name: 'Cancel' }));
    // Enter on the focused Cancel closes the dialog and deletes nothing.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toHaveLength(0);
  });

  it("shows the API's label_exists beside the name", async () => {
    answer([bug], () =>
      apiAnswer(409, {
        code: 'label_exists',
        detail: 'This workspace already has a label named "bug".',
        request_id: 'req-1',
      }),
    );
    const { user } = renderSettings(admin);
    await screen.findByText('Bug');

    await user.type(screen.getByLabelText('Name'), 'bug');
    await user.click(screen.getByRole('button', { name: 'Create label' }));
    expect(await screen.findByText('This workspace already has a label named "bug".')).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
  });

  it('offers a viewer neither the form nor edit and delete', async () => {
    answer([bug]);
    renderSettings({ canCreate: false, canManage: false });
    await screen.findByText('Bug');
    expect(screen.queryByRole('button', { name: 'Create label' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Bug' })).toBeNull();
    expect(screen.getByText('Only owners and admins rename, recolor and delete labels.')).toBeTruthy();
  });
});
