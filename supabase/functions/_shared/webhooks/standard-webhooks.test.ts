import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook, webhookHeaders } from './standard-webhooks.ts';

const BODY = JSON.stringify({ type: 'task.created', data: { id: 'task_1', title: 'Ship webhooks' } });
const now = () => Math.floor(Date.now() / 1000);

describe('generateWebhookSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(atob(secret.slice('whsec_'.length))).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe('signWebhook', () => {
  it('writes what the standardwebhooks package writes', async () => {
    const secret = generateWebhookSecret();
    const timestamp = now();
    const signature = await signWebhook({ id: 'msg_1', timestamp, body: BODY, secrets: [secret] });
    expect(signature).toBe(new Webhook(secret).sign('msg_1', new Date(timestamp * 1000), BODY));
  });

  it('verifies with the standardwebhooks package', async () => {
    const secret = generateWebhookSecret();
    const headers = await webhookHeaders({ id: 'msg_1', timestamp: now(), body: BODY, secrets: [secret] });
    expect(new Webhook(secret).verify(BODY, { ...headers })).toEqual(JSON.parse(BODY));
  });

  it('signs once per secret, so each secret of a rotation verifies alone', async () => {
    const [oldSecret, newSecret] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = await webhookHeaders({
      id: 'msg_2',
      timestamp: now(),
      body: BODY,
      secrets: [oldSecret, newSecret],
    });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect(() => new Webhook(oldSecret).verify(BODY, { ...headers })).not.toThrow();
    expect(() => new Webhook(newSecret).verify(BODY, { ...headers })).not.toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(BODY, { ...headers })).toThrow();
  });

  it('does not verify a tampered body, id or timestamp', async () => {
    const secret = generateWebhookSecret();
    const timestamp = now();
    const headers = await webhookHeaders({ id: 'msg_3', timestamp, body: BODY, secrets: [secret] });
    const receiver = new Webhook(secret);
    expect(() => receiver.verify(BODY.replace('Ship', 'Sink'), { ...headers })).toThrow();
    expect(() => receiver.verify(BODY, { ...headers, 'webhook-id': 'msg_4' })).toThrow();
    expect(() => receiver.verify(BODY, { ...headers, 'webhook-timestamp': String(timestamp - 1) })).toThrow();
  });

  it('refuses a secret without the whsec_ prefix', async () => {
    await expect(
      signWebhook({ id: 'msg_5', timestamp: now(), body: BODY, secrets: ['c2VjcmV0'] }),
    ).rejects.toThrow('whsec_');
  });
});
