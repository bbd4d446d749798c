import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMailbox } from './mailbox.ts';
import { renderMailboxPage } from './mailbox-page.ts';
import { startMailboxServer } from './mailbox-server.ts';

describe('the mailbox store', () => {
  test('lists newest first, filters by recipient case-insensitively, extracts links, clears', () => {
    const mailbox = createMailbox();
    mailbox.deliver({ to: 'a@example.com', subject: 'first', text: 'no link' });
    mailbox.deliver({
      to: 'b@example.com',
      subject: 'second',
      text: 'go to http://127.0.0.1:54321/auth/v1/verify?token=x&type=recovery now, or https://example.com/',
    });
    mailbox.deliver({ to: 'a@example.com', subject: 'third', text: 'again' });

    expect(mailbox.messages().map((message) => message.subject)).toEqual(['third', 'second', 'first']);
    expect(mailbox.messages({ to: 'A@Example.com' }).map((message) => message.subject)).toEqual([
      'third',
      'first',
    ]);
    const [second] = mailbox.messages({ to: 'b@example.com' });
    expect(second).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      links: ['http://127.0.0.1:54321/auth/v1/verify?token=x&type=recovery', 'https://example.com/'],
    });
    expect(mailbox.messages({ to: 'a@example.com' })[0]).not.toHaveProperty('links');
    mailbox.clear();
    expect(mailbox.messages()).toEqual([]);
  });

  test('keeps the newest 500 messages', () => {
    const mailbox = createMailbox();
    for (let i = 0; i < 505; i += 1) mailbox.deliver({ to: 'a@example.com', subject: `#${i}`, text: '' });
    const messages = mailbox.messages();
    expect(messages).toHaveLength(500);
    expect(messages[0]?.subject).toBe('#504');
    expect(messages.at(-1)?.subject).toBe('#5');
  });
});

describe('the mailbox page', () => {
  test('escapes everything it shows and links only http(s) addresses', () => {
    const mailbox = createMailbox();
    mailbox.deliver({
      to: 'x@example.com',
      subject: '<script>alert(1)</script>',
      text: 'Open https://example.com/a?b=1&c="2" or javascript:alert(1) <img src=x onerror=alert(1)>',
    });
    const page = renderMailboxPage(mailbox.messages());
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('<a href="https://example.com/a?b=1&amp;c=">https://example.com/a?b=1&amp;c=</a>');
    expect(page).not.toContain('href="javascript');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  test('says so when there is nothing to show', () => {
    expect(renderMailboxPage([])).toContain('No messages yet.');
  });
});

describe('the mailbox relay, POST /api/messages', () => {
  let server: Server;
  let base: string;
  const mailbox = createMailbox();

  beforeAll(async () => {
    server = await startMailboxServer({ host: '127.0.0.1', port: 0, mailbox });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.close();
    await once(server, 'close');
  });

  const post = (body: string) =>
    fetch(`${base}/api/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ignored' },
      body,
    });

  test("takes a mail as Resend does and stores it like the auth service's, for each recipient", async () => {
    mailbox.clear();
    const response = await post(
      JSON.stringify({
        from: 'Tasklane <no-reply@tasklane.local>',
        to: ['Grace@Example.com', 'linus@example.com'],
        subject: 'Ada invited you to Acme on Tasklane',
        text: 'Accept:\nhttp://localhost:5173/invite/abc\n',
        html: '<a href="http://localhost:5173/invite/abc">Accept</a>',
      }),
    );
    expect(response.status).toBe(200);
    const { id } = (await response.json()) as { id: string };

    const listed = await fetch(`${base}/api/messages?to=grace@example.com`);
    const { messages } = (await listed.json()) as { messages: unknown[] };
    expect(messages).toEqual([
      {
        id,
        to: 'Grace@Example.com',
        subject: 'Ada invited you to Acme on Tasklane',
        text: 'Accept:\nhttp://localhost:5173/invite/abc\n',
        html: '<a href="http://localhost:5173/invite/abc">Accept</a>',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        links: ['http://localhost:5173/invite/abc'],
      },
    ]);
    expect(mailbox.messages({ to: 'linus@example.com' })).toHaveLength(1);
    expect(renderMailboxPage(mailbox.messages())).toContain('Ada invited you to Acme on Tasklane');
  });

  test('takes a single recipient as a string, and no HTML', async () => {
    mailbox.clear();
    const response = await post(JSON.stringify({ to: 'a@example.com', subject: 'Hi', text: 'Hello' }));
    expect(response.status).toBe(200);
    expect(mailbox.messages()).toEqual([
      {
        id: expect.any(String),
        to: 'a@example.com',
        subject: 'Hi',
        text: 'Hello',
        created_at: expect.any(String),
      },
    ]);
  });

  test.each([
    ['malformed JSON', '{"to":', 400, 'The body is not valid JSON.'],
    ['no recipient', JSON.stringify({ to: [], subject: 'Hi', text: 'x' }), 422, 'Invalid mail: to.'],
    ['no subject nor text', JSON.stringify({ to: 'a@example.com' }), 422, 'Invalid mail: subject, text.'],
  ])('refuses %s and stores nothing', async (_name, body, status, message) => {
    mailbox.clear();
    const response = await post(body);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ message });
    expect(mailbox.messages()).toEqual([]);
  });

  test('names POST among the methods /api/messages allows', async () => {
    const response = await fetch(`${base}/api/messages`, { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
    await response.body?.cancel();
  });
});
