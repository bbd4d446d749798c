import type { components } from '@api-spec/schema.d.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { DeliveryLog } from './delivery-log.tsx';

type Webhook = components['schemas']['Webhook'];
type WebhookDelivery = components['schemas']['WebhookDelivery'];
type WebhookDeliveryDetail = components['schemas']['WebhookDeliveryDetail'];

const webhook: Webhook = {
  object: 'webhook',
  id: '7c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  workspace_id: '0b7e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  url: 'https://hooks.example.com/tasklane',
  events: ['*'],
  active: true,
  disabled_reason: null,
  created_by: null,
  version: 1,
  created_at: '2026-11-22T09:10:00.000Z',
  updated_at: '2026-11-22T09:10:00.000Z',
};

function delivery(n: number, patch: Partial<WebhookDelivery>): WebhookDelivery {
  return {
    object: 'webhook_delivery',
    id: `9d3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8${n}`,
    webhook_id: webhook.id,
    event_id: String(n),
    event_type: 'task.created',
    status: 'succeeded',
    attempts: 1,
    response_status: 200,
    latency_ms: 42,
    error: null,
    last_attempt_at: '2026-11-22T09:10:01.000Z',
    next_attempt_at: null,
    created_at: '2026-11-22T09:10:00.000Z',
    ...patch,
  };
}

const page1 = [
  delivery(1, {}),
  delivery(2, {
    status: 'retrying',
    response_status: 500,
    attempts: 2,
    next_attempt_at: '2026-11-22T09:15:00.000Z',
  }),
  delivery(3, {
    status: 'failed',
    response_status: null,
    latency_ms: null,
    attempts: 10,
    error: 'timed out',
  }),
];
const page2 = [
  delivery(4, {
    status: 'pending',
    event_type: 'ping',
    attempts: 0,
    response_status: null,
    latency_ms: null,
  }),
];

/** Answers the log by pages (the cursor `next`), a delivery's detail, and redelivery; records requests. */
function answerLog() {
  const sent: Request[] = [];
  fetchMock.mockImplementation((input) => {
    const request = input as Request;
    sent.push(request);
    const url = new URL(request.url);
    if (url.pathname.endsWith('/deliveries')) {
      const second = url.searchParams.get('cursor') === 'next';
      return Promise.resolve(
        apiAnswer(200, { object: 'list', data: second ? page2 : page1, next_cursor: second ? null : 'next' }),
      );
    }
    if (url.pathname.endsWith('/redeliver')) {
      return Promise.resolve(apiAnswer(202, { ...page1[0], status: 'pending' }));
    }
    const detail: WebhookDeliveryDetail = {
      ...delivery(1, {}),
      request: {
        headers: { 'content-type': 'application/json', 'webhook-id': delivery(1, {}).id },
        body: '{"type":"task.created","data":{"seq":1}}',
      },
      response: { status: 200, body: 'ok' },
    };
    return Promise.resolve(apiAnswer(200, detail));
  });
  return sent;
}

describe('DeliveryLog', () => {
  it('shows each delivery with its status, answer, latency and tries, then loads more', async () => {
    answerLog();
    const { user } = renderWithQueries(<DeliveryLog slug="acme" webhook={webhook} />);

    const rows = await screen.findAllByTestId('webhook-delivery');
    expect(rows.map((row) => row.querySelector('[data-status]')?.textContent)).toEqual([
      'Succeeded',
      'Retrying',
      'Failed',
    ]);
    expect(within(rows[0] as HTMLElement).getByText('HTTP 200')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('42 ms')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('2 tries')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText(/next/)).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('No answer')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('webhook-delivery')).toHaveLength(4));
    expect(screen.getByText('Pending')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('opens a delivery with its request and response, and redelivers it', async () => {
    const sent = answerLog();
    const { user } = renderWithQueries(<DeliveryLog slug="acme" webhook={webhook} />);

    await user.click((await screen.findAllByTestId('webhook-delivery'))[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Delivery' });
    expect(await within(dialog).findByText(/"seq": 1/)).toBeTruthy();
    expect(within(dialog).getByText(/content-type: application\/json/)).toBeTruthy();
    expect(within(dialog).getByText('HTTP 200')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Redeliver' }));
    await waitFor(() => expect(sent.some((request) => request.url.endsWith('/redeliver'))).toBe(true));
    expect(sent.find((request) => request.url.endsWith('/redeliver'))?.method).toBe('POST');
  });
});
