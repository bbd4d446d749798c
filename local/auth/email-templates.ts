import { escapeHtml } from '../../supabase/functions/_shared/mail/escape-html.ts';
import type { Mail } from './mailer.ts';

/** What a template needs: GoTrue's `{{ .ConfirmationURL }}` and `{{ .Token }}`. */
export interface EmailLink {
  to: string;
  /** The `/verify` link. */
  link: string;
  /** The 6-digit code, for people who type it instead. */
  otp: string;
}

interface Wording {
  subject: string;
  heading: string;
  intro: string;
}

/** GoTrue's default recovery mail, with the code as the CLI's templates add it. */
export function recoveryMail(link: EmailLink): Mail {
  return render(link, {
    subject: 'Reset Your Password',
    heading: 'Reset Password',
    intro: 'Follow this link to reset the password for your user:',
  });
}

/** GoTrue's default sign-up confirmation mail. */
export function confirmationMail(link: EmailLink): Mail {
  return render(link, {
    subject: 'Confirm Your Signup',
    heading: 'Confirm your signup',
    intro: 'Follow this link to confirm your user:',
  });
}

function render({ to, link, otp }: EmailLink, { subject, heading, intro }: Wording): Mail {
  const code = `Alternatively, enter the code: ${otp}`;
  const text = [heading, '', intro, link, '', code, ''].join('\n');
  const html = [
    `<h2>${escapeHtml(heading)}</h2>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(heading)}</a></p>`,
    `<p>${escapeHtml(code)}</p>`,
  ].join('\n');
  return { to, subject, text, html };
}
