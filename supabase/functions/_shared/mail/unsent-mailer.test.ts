import { describe, expect, it } from 'vitest';
import { createJsonLogger } from '../logger.ts';
import { unsentMailer } from './unsent-mailer.ts';

describe('unsentMailer', () => {
  it('drops the mail and logs that it did, without anything the mail held', async () => {
    const lines: string[] = [];
    const mailer = unsentMailer(createJsonLogger({ write: (line) => lines.push(line) }));
    await mailer.send({
      to: 'grace@example.com',
      subject: 'Invitation',
      text: 'https://app.example.com/invite/secret-token',
      html: '<a href="https://app.example.com/invite/secret-token">Accept</a>',
    });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      level: 'warn',
      msg: 'mail not sent: MAIL_API_URL is not set',
    });
    expect(lines[0]).not.toMatch(/secret-token|grace@example\.com/);
  });
});
