import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { LoadError } from '../../components/ui/load-error.tsx';
import { paths } from '../../config/paths.ts';
import { useMembers } from '../../features/members/api/list-members.ts';
import { MemberList } from '../../features/members/components/member-list.tsx';
import { MemberListSkeleton } from '../../features/members/components/member-list-skeleton.tsx';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';
import { workspaceKeys } from '../../features/workspaces/api/query-keys.ts';
import { useAuthState } from '../../lib/auth/auth-session.ts';
import tab from './settings-tab.module.css';

const route = getRouteApi('/signed-in/w/$slug/settings/members');

/** `/w/:slug/settings/members`: who is in the workspace; admins change roles and remove, anyone leaves. */
export function SettingsMembersScreen() {
  const { slug } = route.useParams();
  const workspace = useWorkspace(slug);
  const members = useMembers(slug, { fresh: true });
  const { session } = useAuthState();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  async function left() {
    // The list of workspaces no longer holds this one; `/` picks another (or `/new`).
    queryClient.removeQueries({ queryKey: workspaceKeys.lists() });
    await navigate({ to: paths.home, replace: true });
    queryClient.removeQueries({ queryKey: workspaceKeys.detail(slug) });
  }

  return (
    <section aria-labelledby="settings-members-title" className={tab.tab}>
      <title>{`Members · ${workspace.data?.name ?? slug} · Tasklane`}</title>
      <h2 id="settings-members-title" className={tab.title}>
        Members
      </h2>
      {members.isPending || !workspace.data || !session ? (
        <MemberListSkeleton />
      ) : members.error ? (
        <LoadError
          what="The members"
          error={members.error}
          onRetry={() => void members.refetch()}
          retrying={members.isFetching}
        />
      ) : (
        <MemberList
          slug={slug}
          members={members.data}
          callerId={session.user.id}
          callerRole={workspace.data.role}
          onLeft={() => void left()}
        />
      )}
    </section>
  );
}
