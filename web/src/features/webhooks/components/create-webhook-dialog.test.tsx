import type { components } from '@api-spec/schema.d.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { CreateWebhookDialog } from './create-webhook-dialog.tsx';

type NewWebhook = components['schemas']['NewWebhook'];

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2bVxjAFXc0E=';

const created: NewWebhook = {
  object: 'webhook',
  id: '7c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  workspace_id: '0b7e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  url: 'https://hooks.example.com/tasklane',
  events: ['task.*', 'comment.created'],
  active: true,
  disabled_reason: null,
  created_by: '1b7e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  version: 1,
  created_at: '2026-11-22T09:10:00.000Z',
  updated_at: '2026-11-22T09:10:00.000Z',
  secret: SECRET,
};

/** Answers every request with `answer()`, recording each. */
function answer(respond: () => Response) {
  const sent: Request[] = [];
  fetchMock.mockImplementation((input) => {
    const request = input as Request;
    sent.push(request);
    return Promise.resolve(respond());
  });
  return sent;
}

function renderDialog(onClose = () => {}) {
  return renderWithQueries(<CreateWebhookDialog slug="acme" open onClose={onClose} />);
}

/** The dialog behind an Open button, as the settings tab holds it. */
function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <CreateWebhookDialog slug="acme" open={open} onClose={() => setOpen(false)} />
    </>
  );
}

describe('CreateWebhookDialog', () => {
  it('checks the URL and the events with the API rules before sending anything', async () => {
    const sent = answer(() => apiAnswer(201, created));
    const { user } = renderDialog();

    await user.click(screen.getByRole('button', { name: 'Add webhook' }));

    expect(screen.getByRole('textbox', { name: 'URL' }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('URL must not be empty.')).toBeTruthy();
    expect(screen.getByText('Events must name at least one event type.')).toBeTruthy();
    expect(sent).toHaveLength(0);
  });

  it('sends a resource.* filter for a whole resource, and shows the secret once', async () => {
    const sent = answer(() => apiAnswer(201, created));
    const { user } = renderDialog();

    await user.type(screen.getByRole('textbox', { name: 'URL' }), created.url);
    await user.click(screen.getByRole('checkbox', { name: 'comment.created' }));
    await user.click(screen.getByRole('checkbox', { name: 'All of task (task.*)' }));
    expect(screen.getByRole('checkbox', { name: 'task.moved' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'task.moved' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));

    const dialog = await screen.findByRole('dialog', { name: 'Webhook added' });
    expect(sent).toHaveLength(1);
    expect(await sent[0]?.json()).toEqual({
      url: created.url,
      events: ['comment.created', 'task.*'],
      active: true,
    });
    expect(within(dialog).getByText(/you won’t see it again/)).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: 'Signing secret' })).toHaveProperty('value', SECRET);
    expect(within(dialog).getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it('forgets the secret once the dialog is done with', async () => {
    answer(() => apiAnswer(201, created));
    const { user } = renderWithQueries(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.type(screen.getByRole('textbox', { name: 'URL' }), created.url);
    await user.click(screen.getByRole('checkbox', { name: 'Everything (*)' }));
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    await user.click(await screen.findByRole('button', { name: 'Done, I have copied it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('dialog', { name: 'Add a webhook' })).toBeTruthy();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
  });

  it('shows the server refusing the address on the URL field', async () => {
    answer(() =>
      apiAnswer(422, {
        code: 'validation_failed',
        detail: 'The request body is not valid.',
        errors: [{ path: 'body.url', code: 'invalid', message: 'must reach a public address' }],
      }),
    );
    const { user } = renderDialog();
    await user.type(screen.getByRole('textbox', { name: 'URL' }), 'https://10.0.0.1/x');
    await user.click(screen.getByRole('checkbox', { name: 'Everything (*)' }));
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));

    expect(await screen.findByText('URL must reach a public address.')).toBeTruthy();
    const url = screen.getByRole('textbox', { name: 'URL' });
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(document.activeElement).toBe(url);
  });
});
