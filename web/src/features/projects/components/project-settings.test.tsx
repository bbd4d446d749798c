import type { components } from '@api-spec/schema.d.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { ProjectSettings } from './project-settings.tsx';

type Project = components['schemas']['Project'];

const web: Project = {
  object: 'project',
  id: '5c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  workspace_id: '0b7e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  key: 'WEB',
  name: 'Website',
  description: '',
  archived: false,
  archived_at: null,
  created_by: '1b7e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  version: 2,
  created_at: '2026-11-22T09:10:00.000Z',
  updated_at: '2026-11-22T09:10:00.000Z',
};

/** Answers the project list with `projects`, and any other request with `other` (recording it). */
function answer(projects: Project[], other: () => Response = () => apiAnswer(500, {})) {
  const sent: Request[] = [];
  fetchMock.mockImplementation((input) => {
    const request = input as Request;
    if (request.method === 'GET' && new URL(request.url).pathname.endsWith('/projects')) {
      return Promise.resolve(apiAnswer(200, { object: 'list', data: projects, next_cursor: null }));
    }
    sent.push(request);
    return Promise.resolve(other());
  });
  return sent;
}

const renderSettings = (canManage = true) =>
  renderWithQueries(<ProjectSettings slug="acme" canManage={canManage} onCreate={vi.fn()} />);

describe('ProjectSettings', () => {
  it('says how task keys change before a key change, and sends it with If-Match', async () => {
    const sent = answer([web], () => apiAnswer(200, { ...web, key: 'SITE', version: 3 }));
    const { user } = renderSettings();

    await user.click(await screen.findByRole('button', { name: 'Edit WEB' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit project' });
    const key = within(dialog).getByLabelText('Key');
    await user.clear(key);
    await user.type(key, 'SITE');
    const note = within(dialog).getByRole('note').textContent;
    expect(note).toContain('WEB-1 becomes SITE-1');
    expect(note).toContain('keep finding their tasks until another project takes WEB');

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent[0]?.method).toBe('PATCH');
    expect(new URL(sent[0]?.url ?? '').pathname).toMatch(/\/v1\/workspaces\/acme\/projects\/WEB$/);
    expect(sent[0]?.headers.get('If-Match')).toBe('"2"');
    expect(await sent[0]?.json()).toEqual({ key: 'SITE' });
  });

  it('shows project_key_taken beside the key', async () => {
    answer([web], () =>
      apiAnswer(409, { code: 'project_key_taken', detail: 'Another project already has the key "OPS".' }),
    );
    const { user } = renderSettings();
    await user.click(await screen.findByRole('button', { name: 'Edit WEB' }));
    const key = within(await screen.findByRole('dialog')).getByLabelText('Key');
    await user.clear(key);
    await user.type(key, 'OPS');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Another project already has the key "OPS".')).toBeTruthy();
    expect(key.getAttribute('aria-invalid')).toBe('true');
  });

  it('deletes a project only once its key is typed', async () => {
    const sent = answer([web], () => new Response(null, { status: 204 }));
    const { user } = renderSettings();

    await user.click(await screen.findByRole('button', { name: 'Delete WEB' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Website?' });
    await user.type(within(dialog).getByLabelText('Type WEB to confirm'), 'WE');
    await user.click(within(dialog).getByRole('button', { name: 'Delete project' }));
    expect(within(dialog).getByText('Type the key WEB exactly.')).toBeTruthy();
    expect(sent).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Type WEB to confirm'), 'B');
    await user.click(within(dialog).getByRole('button', { name: 'Delete project' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent[0]?.method).toBe('DELETE');
    expect(sent[0]?.headers.get('If-Match')).toBe('"2"');
  });

  it('archives and unarchives', async () => {
    const archived = { ...web, archived: true, archived_at: '2026-11-23T09:10:00.000Z', version: 3 };
    const sent = answer([archived], () => apiAnswer(200, { ...web, version: 4 }));
    const { user } = renderSettings();

    expect(await screen.findByText('Archived')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit WEB' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Unarchive WEB' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(await sent[0]?.json()).toEqual({ archived: false });
  });

  it('shows members the projects without changing them', async () => {
    answer([web]);
    renderSettings(false);
    expect(await screen.findByText('Website')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete WEB' })).toBeNull();
    expect(screen.getByText('Only owners and admins change, archive and delete projects.')).toBeTruthy();
  });
});
