import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { escapeHtml } from '../../supabase/functions/_shared/mail/escape-html.ts';
import { configTomlStrings } from '../config-toml.ts';
import { htmlToText } from './html-to-text.ts';
import type { Mail } from './mailer.ts';

/** The Auth mails the app sends, by their `[auth.email.template.<name>]` table in config.toml. */
export const TEMPLATE_NAMES = [
  'confirmation',
  'recovery',
  'magic_link',
  'invite',
  'email_change',
  'reauthentication',
] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** A template as config.toml names it: its subject and the HTML of its `content_path`. */
export interface EmailTemplate {
  subject: string;
  html: string;
}

export type EmailTemplates = Record<TemplateName, EmailTemplate>;

/**
 * GoTrue's built-in mail for a template config.toml leaves out, as hosted Supabase sends it (the app's own
 * confirmation and recovery mails must be in config.toml). Since GoTrue's copy update of May 2026 the magic
 * link carries the link alone, no code; the reauthentication mail is nothing but its code.
 */
const GOTRUE_DEFAULTS: Partial<Record<TemplateName, EmailTemplate>> = {
  magic_link: {
    subject: 'Your sign-in link',
    html: '<h2>Your sign-in link</h2>\n<p>This link signs you in once and expires soon.</p>\n<p><a href="{{ .ConfirmationURL }}">Sign in</a></p>',
  },
  invite: {
    subject: 'You have been invited',
    html: '<h2>You have been invited</h2>\n<p>You have been invited to create a user on {{ .SiteURL }}. Follow this link to accept the invite:</p>\n<p><a href="{{ .ConfirmationURL }}">Accept the invite</a></p>',
  },
  email_change: {
    subject: 'Confirm Email Change',
    html: '<h2>Confirm Change of Email</h2>\n<p>Follow this link to confirm the update of your email from {{ .Email }} to {{ .NewEmail }}:</p>\n<p><a href="{{ .ConfirmationURL }}">Change Email</a></p>',
  },
  reauthentication: {
    subject: 'Confirm reauthentication',
    html: '<h2>Confirm reauthentication</h2>\n<p>Enter the code: {{ .Token }}</p>',
  },
};

/** What one mail is filled with. */
export interface MailValues {
  to: string;
  /** GoTrue's `{{ .ConfirmationURL }}`: the `/verify` link (empty in the reauthentication mail). */
  link: string;
  siteUrl: string;
  redirectTo: string;
  /** GoTrue's `{{ .Email }}` when it is not the recipient: the current address of an e-mail change. */
  email?: string;
  /** GoTrue's `{{ .NewEmail }}`: the address an e-mail change is to. */
  newEmail?: string;
  /** GoTrue's `{{ .Token }}`, only in the built-in reauthentication mail. Never log it. */
  token?: string;
}

// The GoTrue template variables the stand-in fills. Anything else, `{{ .Token }}` included, is refused at
// start-up, so that a template cannot use what the stand-in would leave empty (and the app has no screen
// for a code).
const VARIABLES: Record<string, (values: MailValues) => string> = {
  ConfirmationURL: (values) => values.link,
  Email: (values) => values.email ?? values.to,
  NewEmail: (values) => values.newEmail ?? '',
  SiteURL: (values) => values.siteUrl,
  RedirectTo: (values) => values.redirectTo,
};
/** Filled in GoTrue's built-in mails only. */
const BUILT_IN_VARIABLES: Record<string, (values: MailValues) => string> = {
  ...VARIABLES,
  Token: (values) => values.token ?? '',
};
const ACTION = /\{\{(.*?)\}\}/gs;
const VARIABLE = /^\s*\.([A-Za-z]+)\s*$/;

/** Reads every template the app needs from config.toml and its files; throws on anything it cannot fill. */
export function readEmailTemplates(projectDir: string): EmailTemplates {
  const entries = TEMPLATE_NAMES.map((name) => [name, readEmailTemplate(projectDir, name)] as const);
  return Object.fromEntries(entries) as EmailTemplates;
}

function readEmailTemplate(projectDir: string, name: TemplateName): EmailTemplate {
  const table = `auth.email.template.${name}`;
  const { subject, content_path: contentPath } = configTomlStrings(projectDir, table);
  const fallback = GOTRUE_DEFAULTS[name];
  if (!subject && !contentPath && fallback) return fallback;
  if (!subject || !contentPath) {
    throw new Error(`supabase/config.toml: [${table}] needs a subject and a content_path.`);
  }
  // The CLI resolves content_path against the project directory (where `supabase/` lives).
  const html = readFileSync(resolve(projectDir, contentPath), 'utf8');
  return checkedTemplate(`${contentPath}`, { subject, html });
}

/** Throws, naming the file and the variable, if the template holds an action the stand-in cannot fill. */
export function checkedTemplate(source: string, template: EmailTemplate): EmailTemplate {
  for (const text of [template.subject, template.html]) {
    for (const [action, inner = ''] of text.matchAll(ACTION)) {
      const name = VARIABLE.exec(inner)?.[1];
      if (!name || !(name in VARIABLES)) {
        const known = Object.keys(VARIABLES)
          .map((variable) => `{{ .${variable} }}`)
          .join(', ');
        throw new Error(`${source}: the stand-in cannot fill ${action}; it knows ${known}.`);
      }
    }
  }
  return template;
}

/** The mail a template makes: variables HTML-escaped in the HTML, and a plain-text part made from it. */
export function renderMail(template: EmailTemplate, values: MailValues): Mail {
  const fill = (text: string, escape: (value: string) => string) =>
    text.replace(ACTION, (_action, inner: string) => {
      const name = VARIABLE.exec(inner)?.[1] ?? '';
      const value = BUILT_IN_VARIABLES[name];
      if (!value) throw new Error(`unchecked template variable ${inner}`);
      return escape(value(values));
    });
  const html = fill(template.html, escapeHtml);
  return { to: values.to, subject: fill(template.subject, (value) => value), text: htmlToText(html), html };
}
