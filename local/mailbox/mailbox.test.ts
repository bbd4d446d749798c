import { describe, expect, test } from 'vitest';
import { createMailbox } from './mailbox.ts';
import { renderMailboxPage } from './mailbox-page.ts';

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
