/** The mail a workspace's owners and admins get when the dispatcher switched one of its webhooks off. */
import { escapeHtml } from '../_shared/mail/escape-html.ts';

export interface StoppedWebhook {
  url: string;
  /** The workspace's webhook settings, where it is switched on again. */
  settingsUrl: string;
}

export function stoppedWebhookMail({ url, settingsUrl }: StoppedWebhook): {
  subject: string;
  text: string;
  html: string;
} {
  const said = `Every delivery to the webhook ${url} failed for 3 days, so Tasklane switched it off.`;
  const next = 'Events are not sent to it while it is off. Once the receiver works again, switch it back on:';
  return {
    subject: 'A webhook was switched off',
    text: [said, '', next, settingsUrl, ''].join('\n'),
    html: `<p>${escapeHtml(said)}</p><p>${escapeHtml(next)} <a href="${escapeHtml(settingsUrl)}">${escapeHtml(settingsUrl)}</a></p>`,
  };
}
