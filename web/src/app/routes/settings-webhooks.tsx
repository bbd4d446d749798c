import { getRouteApi } from '@tanstack/react-router';
import { WebhookSettings } from '../../features/webhooks/components/webhook-settings.tsx';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';
import tab from './settings-tab.module.css';

const route = getRouteApi('/signed-in/w/$slug/settings/webhooks');

/** `/w/:slug/settings/webhooks`: owners and admins subscribe URLs to events and follow their deliveries. */
export function SettingsWebhooksScreen() {
  const { slug } = route.useParams();
  const workspace = useWorkspace(slug);
  const role = workspace.data?.role;
  const mayManage = role === 'owner' || role === 'admin';

  return (
    <section aria-labelledby="settings-webhooks-title" className={tab.tab}>
      <title>{`Webhooks · ${workspace.data?.name ?? slug} · Tasklane`}</title>
      <h2 id="settings-webhooks-title" className={tab.title}>
        Webhooks
      </h2>
      {!role ? null : !mayManage ? (
        <p className={tab.lead}>Only owners and admins manage webhooks. Ask one of them to add one.</p>
      ) : (
        <WebhookSettings slug={slug} />
      )}
    </section>
  );
}
