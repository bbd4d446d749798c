/**
 * Webhooks end to end on the stand-in (docs/webhooks.md): the API under Deno queues a delivery with the
 * event, wakes the dispatcher function (also under Deno, with Deno's resolver and connector), which
 * signs and sends it to a receiver on loopback; the receiver verifies it with the `standardwebhooks`
 * package. The scheduled run is an hour away here, so only the wake-up can deliver in time.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { httpApi, takeFirstSteps } from '../support/http-api.ts';
import { UNLIMITED_AUTH_RATES, uniqueEmails, useStandIn } from '../support/stand-in-auth.ts';

interface Arrival {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const arrivals: Arrival[] = [];
let server: Server;
let receiverUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      arrivals.push({
        at: performance.now(),
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tasklane`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function arrivalAfter(count: number, timeoutMs = 10_000): Promise<Arrival> {
  const deadline = Date.now() + timeoutMs;
  while (arrivals.length <= count) {
    if (Date.now() > deadline) throw new Error(`no delivery within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const arrival = arrivals[count];
  if (!arrival) throw new Error('no arrival');
  return arrival;
}

const verified = (secret: string, arrival: Arrival) =>
  new StandardWebhook(secret).verify(arrival.body, {
    'webhook-id': String(arrival.headers['webhook-id']),
    'webhook-timestamp': String(arrival.headers['webhook-timestamp']),
    'webhook-signature': String(arrival.headers['webhook-signature']),
  });

describe('webhooks on the stand-in', () => {
  const standIn = useStandIn({ ...UNLIMITED_AUTH_RATES, TASKLANE_WEBHOOK_DISPATCH_INTERVAL_MS: '3600000' });
  const api = () => httpApi(`${standIn.process.apiUrl}/functions/v1/api/v1`);

  test('a task created through the API reaches the receiver in about a second, signed', async () => {
    const { data } = await standIn.client().auth.signUp({
      email: uniqueEmails('hooks.')(),
      password: 'correct horse battery',
    });
    if (!data.session) throw new Error('no session');
    const { token, slug } = await takeFirstSteps(api(), data.session.access_token, 'Hooks');
    expect(
      (await api().call(token, `/workspaces/${slug}/projects`, 'POST', { key: 'ENG', name: 'Eng' })).status,
    ).toBe(201);
    const created = await api().call(token, `/workspaces/${slug}/webhooks`, 'POST', {
      url: receiverUrl,
      events: ['task.*'],
    });
    expect(created.status).toBe(201);
    const webhook = (await created.json()) as { id: string; secret: string };

    const committed = performance.now();
    const task = await api().call(token, `/workspaces/${slug}/projects/ENG/tasks`, 'POST', {
      title: 'Hooked',
    });
    expect(task.status).toBe(201);
    const arrival = await arrivalAfter(0);
    console.log(`commit → verified arrival: ${Math.round(arrival.at - committed)} ms`);
    expect(verified(webhook.secret, arrival)).toMatchObject({
      type: 'task.created',
      data: { type: 'task.created', data: { key: 'ENG-1', title: 'Hooked' } },
    });

    const log = await api().call(token, `/workspaces/${slug}/webhooks/${webhook.id}/deliveries`);
    const deliveries = (await log.json()) as {
      data: { id: string; status: string; response_status: number }[];
    };
    expect(deliveries.data).toEqual([
      expect.objectContaining({
        id: arrival.headers['webhook-id'],
        status: 'succeeded',
        response_status: 204,
      }),
    ]);

    expect((await api().call(token, `/workspaces/${slug}/webhooks/${webhook.id}/test`, 'POST')).status).toBe(
      202,
    );
    expect(JSON.parse((await arrivalAfter(1)).body)).toMatchObject({ type: 'ping' });
  });

  test('the dispatcher refuses callers without the secret key', async () => {
    const response = await fetch(`${standIn.process.apiUrl}/functions/v1/webhook-dispatcher`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${standIn.keys.anonKey}` },
    });
    expect(response.status).toBe(401);
  });
});
