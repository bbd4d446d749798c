import { getRouteApi } from '@tanstack/react-router';
import { LoadError } from '../../components/ui/load-error.tsx';
import { useInvitations } from '../../features/invitations/api/list-invitations.ts';
import { InvitationList } from '../../features/invitations/components/invitation-list.tsx';
import { InviteForm } from '../../features/invitations/components/invite-form.tsx';
import { MemberListSkeleton } from '../../features/members/components/member-list-skeleton.tsx';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';
import tab from './settings-tab.module.css';

const route = getRouteApi('/signed-in/w/$slug/settings/invitations');

/** `/w/:slug/settings/invitations`: owners and admins invite by e-mail and revoke pending invitations. */
export function SettingsInvitationsScreen() {
  const { slug } = route.useParams();
  const workspace = useWorkspace(slug);
  const role = workspace.data?.role;
  const mayInvite = role === 'owner' || role === 'admin';
  const invitations = useInvitations(slug, { enabled: mayInvite });

  return (
    <section aria-labelledby="settings-invitations-title" className={tab.tab}>
      <title>{`Invitations · ${workspace.data?.name ?? slug} · Tasklane`}</title>
      <h2 id="settings-invitations-title" className={tab.title}>
        Invitations
      </h2>
      {!role ? null : !mayInvite ? (
        <p className={tab.lead}>
          Only the workspace’s owners and admins invite people. Ask one of them to invite someone.
        </p>
      ) : (
        <>
          <p className={tab.lead}>Invite people by e-mail. Each invitation works for 7 days.</p>
          <InviteForm slug={slug} callerRole={role} />
          <h3 className={tab.subtitle}>Sent invitations</h3>
          {invitations.isPending ? (
            <MemberListSkeleton label="Loading invitations" />
          ) : invitations.error ? (
            <LoadError
              what="The invitations"
              error={invitations.error}
              onRetry={() => void invitations.refetch()}
              retrying={invitations.isFetching}
            />
          ) : (
            <InvitationList slug={slug} invitations={invitations.data} />
          )}
        </>
      )}
    </section>
  );
}
