import type { components } from '@api-spec/schema.d.ts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { WebhookSettings } from './webhook-settings.tsx';

type Webhook = components['schemas']['Webhook'];

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2bVxjAFXc0E=';

const hook: Webhook = {
  object: 'webhook',
  id: '7c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  workspace_id: '0b7e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  url: 'https://hooks.example.com/tasklane',
  events: ['task.*'],
  active: false,
  disabled_reason: 'gone',
  created_by: null,
  version: 1,
  created_at: '2026-11-22T09:10:00.000Z',
  updated_at: '2026-11-22T09:10:00.000Z',
};

/** Answers the webhook list with `webhooks` (what a POST adds joins it), deliveries with none. */
function answer(webhooks: Webhook[]) {
  fetchMock.mockImplementation((input) => {
    const request = input as Request;
    const path = new URL(request.url).pathname;
    if (request.method === 'POST' && path.endsWith('/webhooks')) {
      webhooks.push(hook);
      return Promise.resolve(apiAnswer(201, { ...hook, secret: SECRET }));
    }
    const data = path.endsWith('/webhooks') ? webhooks : [];
    return Promise.resolve(apiAnswer(200, { object: 'list', data, next_cursor: null }));
  });
}

describe('WebhookSettings', () => {
  it('says what webhooks are when there are none, and keeps the new secret shown as the list fills', async () => {
    answer([]);
    const { user } = renderWithQueries(<WebhookSettings slug="acme" />);

    await screen.findByText('No webhooks yet.');
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    const add = screen.getByRole('dialog', { name: 'Add a webhook' });
    await user.type(within(add).getByRole('textbox', { name: 'URL' }), hook.url);
    await user.click(within(add).getByRole('checkbox', { name: 'All of task (task.*)' }));
    await user.click(within(add).getByRole('button', { name: 'Add webhook' }));

    const added = await screen.findByRole('dialog', { name: 'Webhook added' });
    await screen.findByTestId('webhook-row');
    expect(within(added).getByRole('textbox', { name: 'Signing secret' })).toHaveProperty('value', SECRET);
  });

  it('says why Tasklane switched a webhook off', async () => {
    answer([hook]);
    renderWithQueries(<WebhookSettings slug="acme" />);
    const row = await screen.findByTestId('webhook-row');
    expect(within(row).getByText('Off: the receiver answered 410 Gone')).toBeTruthy();
    expect(within(row).getByRole('button', { name: `Turn on ${hook.url}` })).toBeTruthy();
  });
});
