import { describe, expect, it } from 'vitest';
import { httpMailer, MailRelayError } from './http-mailer.ts';
import type { OutgoingMail } from './mailer.ts';

const MAIL: OutgoingMail = {
  to: 'grace@example.com',
  subject: 'Ada invited you to Acme on Tasklane',
  text: 'Accept: https://app.example.com/invite/secret-token',
  html: '<p><a href="https://app.example.com/invite/secret-token">Accept</a></p>',
};

interface Sent {
  url: string;
  init: RequestInit;
}

/** A fetch that records what it was asked and answers `status`. */
function relayAnswering(status: number, body = '{"id":"relay-id"}') {
  const sent: Sent[] = [];
  const fetchStub = (input: string | URL | Request, init: RequestInit = {}) => {
    sent.push({ url: String(input), init });
    return Promise.resolve(new Response(status === 204 ? null : body, { status }));
  };
  return { sent, fetch: fetchStub as typeof fetch };
}

describe('httpMailer', () => {
  it('posts the mail as Resend takes it, with the key as a bearer token and no redirects', async () => {
    const relay = relayAnswering(200);
    const mailer = httpMailer({
      url: 'https://relay.example.com/emails',
      apiKey: 're_test_key',
      from: 'Tasklane <no-reply@example.com>',
      fetch: relay.fetch,
    });
    await mailer.send(MAIL);

    expect(relay.sent).toHaveLength(1);
    const [{ url, init }] = relay.sent as [Sent];
    expect(url).toBe('https://relay.example.com/emails');
    expect(init.method).toBe('POST');
    expect(init.redirect).toBe('manual');
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(init.headers).toEqual({
      'Content-Type': 'application/json',
      Authorization: 'Bearer re_test_key',
    });
    expect(JSON.parse(String(init.body))).toEqual({
      from: 'Tasklane <no-reply@example.com>',
      to: ['grace@example.com'],
      subject: MAIL.subject,
      text: MAIL.text,
      html: MAIL.html,
    });
  });

  it('sends no Authorization header without a key', async () => {
    const relay = relayAnswering(204);
    await httpMailer({
      url: 'http://127.0.0.1:54324/api/messages',
      from: 'x@example.com',
      fetch: relay.fetch,
    }).send(MAIL);
    expect(relay.sent[0]?.init.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it.each([
    [422, 'a refusal'],
    [500, 'a failure'],
    [302, 'a redirect, which it does not follow'],
  ])('rejects on %i (%s), without the answer or the mail in the error', async (status) => {
    const relay = relayAnswering(status, '{"message":"echo https://app.example.com/invite/secret-token"}');
    const sending = httpMailer({
      url: 'https://relay.example.com/emails',
      from: 'x@example.com',
      fetch: relay.fetch,
    }).send(MAIL);
    await expect(sending).rejects.toThrow(new MailRelayError(`The mail relay answered ${status}.`));
    await sending.catch((error: unknown) => expect(String(error)).not.toContain('secret-token'));
  });

  it('gives up on a relay that does not answer within the timeout', async () => {
    const hanging = ((_input: string | URL | Request, init: RequestInit = {}) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      })) as typeof fetch;
    const sending = httpMailer({
      url: 'https://relay.example.com/emails',
      from: 'x@example.com',
      timeoutMs: 20,
      fetch: hanging,
    }).send(MAIL);
    await expect(sending).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
