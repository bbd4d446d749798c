import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkedTemplate, readEmailTemplates, renderMail } from './email-templates.ts';

const PROJECT = resolve(import.meta.dirname, '..', '..');
const VALUES = {
  to: 'ada@example.com',
  link: 'http://127.0.0.1:54321/auth/v1/verify?token=abc&type=signup&redirect_to=http://localhost:5173/invite/x',
  siteUrl: 'http://localhost:5173',
  redirectTo: 'http://localhost:5173/invite/x',
};

describe('the mail templates of supabase/config.toml', () => {
  test('config.toml names Tasklane’s confirmation and recovery mails, and the stand-in reads them', () => {
    const templates = readEmailTemplates(PROJECT);
    expect(templates.confirmation.subject).toBe('Confirm your e-mail address for Tasklane');
    expect(templates.recovery.subject).toBe('Reset your Tasklane password');
    expect(templates.confirmation.html).toContain('{{ .ConfirmationURL }}');
    expect(templates.recovery.html).toContain('{{ .ConfirmationURL }}');
  });

  test('config.toml has no magic-link template, so the stand-in sends GoTrue’s default: the link, no code', () => {
    const mail = renderMail(readEmailTemplates(PROJECT).magic_link, VALUES);
    expect(mail.subject).toBe('Your sign-in link');
    expect(mail.html).toContain(`href="${VALUES.link.replaceAll('&', '&amp;')}"`);
    expect(mail.text).not.toMatch(/\b\d{6}\b/);
  });

  test('a rendered mail carries the link, HTML-escaped in the HTML and plain in the text, and no code', () => {
    const mail = renderMail(readEmailTemplates(PROJECT).confirmation, VALUES);
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('Confirm your e-mail address for Tasklane');
    expect(mail.html).toContain(`href="${VALUES.link.replaceAll('&', '&amp;')}"`);
    expect(mail.html).not.toContain('{{');
    expect(mail.text).toContain(`Confirm and sign in: ${VALUES.link}`);
    expect(mail.text).toContain('Confirm that ada@example.com is your address');
    expect(mail.text).not.toMatch(/\b\d{6}\b/);
    expect(mail.text).not.toMatch(/<|&amp;/);
  });

  test('values are escaped: an address cannot add markup to the mail', () => {
    const template = checkedTemplate('inline', { subject: 'Hi {{ .Email }}', html: '<p>{{.Email}}</p>' });
    const mail = renderMail(template, { ...VALUES, to: '"<b>x</b>"@example.com' });
    expect(mail.html).toBe('<p>&quot;&lt;b&gt;x&lt;/b&gt;&quot;@example.com</p>');
    expect(mail.subject).toBe('Hi "<b>x</b>"@example.com');
  });

  test('a variable the stand-in cannot fill fails loudly, naming the file and the variable', () => {
    expect(() =>
      checkedTemplate('confirmation.html', { subject: 'Confirm', html: '<p>Code: {{ .Token }}</p>' }),
    ).toThrow(
      'confirmation.html: the stand-in cannot fill {{ .Token }}; it knows {{ .ConfirmationURL }}, {{ .Email }}, {{ .NewEmail }}, {{ .SiteURL }}, {{ .RedirectTo }}.',
    );
    expect(() => checkedTemplate('recovery.html', { subject: '{{ if .Data }}x{{ end }}', html: '' })).toThrow(
      'recovery.html: the stand-in cannot fill {{ if .Data }}',
    );
  });
});
