import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { latestMailTo, mailboxUrl, mailTo, verifyLinkIn } from '../support/mailbox-client.ts';
import { useStandIn } from '../support/stand-in-auth.ts';

const run = promisify(execFile);
const DEMO = { email: 'demo@tasklane.local', password: 'tasklane-demo' };

describe('a fresh stand-in: its mailbox and its demo account', () => {
  const standIn = useStandIn();

  test('the startup summary and `npm run status -- --json` name the mailbox and the demo account', async () => {
    const output = standIn.process.output();
    expect(output).toContain('[auth] created the demo account demo@tasklane.local');
    expect(output).toMatch(new RegExp(`Mailbox\\s+${mailboxUrl(standIn.process)}\\n`));
    expect(output).toMatch(/Demo account\s+demo@tasklane\.local \/ tasklane-demo\n/);
    const { stdout } = await run('npm', ['run', '-s', 'status', '--', '--json'], {
      env: standIn.process.env,
    });
    expect(JSON.parse(stdout)).toMatchObject({
      MAILBOX_URL: mailboxUrl(standIn.process),
      DEMO_EMAIL: DEMO.email,
      DEMO_PASSWORD: DEMO.password,
    });
  });

  test('the demo account is confirmed, named "Demo User", and signs in with its password', async () => {
    const { data, error } = await standIn.client().auth.signInWithPassword(DEMO);
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email: DEMO.email,
      email_confirmed_at: expect.any(String),
      user_metadata: { display_name: 'Demo User' },
      identities: [{ provider: 'email', identity_data: { email: DEMO.email, email_verified: true } }],
    });
    const stored = await standIn.withDatabase((db) =>
      db.query<{ encrypted_password: string }>('select encrypted_password from auth.users where email = $1', [
        DEMO.email,
      ]),
    );
    expect(stored.rows).toEqual([{ encrypted_password: expect.stringMatching(/^\$2[aby]\$10\$/) }]);
  });

  test('GET /api/messages lists what auth sent, newest first and by recipient; DELETE clears it', async () => {
    const supabase = standIn.client();
    expect((await supabase.auth.resetPasswordForEmail(DEMO.email)).error).toBeNull();

    const response = await fetch(`${mailboxUrl(standIn.process)}/api/messages?to=DEMO@tasklane.local`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const { messages } = (await response.json()) as { messages: unknown[] };
    const verifyLink = expect.stringContaining(`${standIn.process.apiUrl}/auth/v1/verify?token=`);
    expect(messages).toEqual([
      {
        id: expect.any(String),
        to: DEMO.email,
        subject: 'Reset your Tasklane password',
        text: expect.stringContaining('Choose a new password: '),
        html: expect.stringContaining('<a\n'),
        created_at: expect.any(String),
        // The button's link, the same address written out for a mail client that hides the button, the site.
        links: [verifyLink, verifyLink, expect.stringMatching(/^http:\/\/localhost:\d+$/)],
      },
    ]);
    expect(await mailTo(standIn.process, 'someone.else@example.com')).toEqual([]);

    const deleted = await fetch(`${mailboxUrl(standIn.process)}/api/messages`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await mailTo(standIn.process, DEMO.email)).toEqual([]);
  });

  test('GET / is a page listing the messages with their links clickable', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100)); // max_frequency is 1 s
    await standIn.client().auth.resetPasswordForEmail(DEMO.email);
    const link = verifyLinkIn(await latestMailTo(standIn.process, DEMO.email));
    const page = await fetch(`${mailboxUrl(standIn.process)}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('<h2>Reset your Tasklane password</h2>');
    expect(html).toContain(DEMO.email);
    expect(html).toContain(`<a href="${link.replaceAll('&', '&amp;')}">`);
  });

  test('answers other methods with 405 and other paths with 404', async () => {
    const put = await fetch(`${mailboxUrl(standIn.process)}/api/messages`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
    expect((await fetch(`${mailboxUrl(standIn.process)}/nothing`)).status).toBe(404);
  });
});
