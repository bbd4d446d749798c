import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { paths } from '../../config/paths.ts';
import { useSignOut } from '../../features/auth/api/sign-out.ts';
import { InvitePage } from '../../features/invitations/components/invite-page/invite-page.tsx';
import { workspaceKeys } from '../../features/workspaces/api/query-keys.ts';
import { useAuthState } from '../../lib/auth/auth-session.ts';

const route = getRouteApi('/invite/$token');

/** `/invite/:token`: the invitation's page; accepting opens the workspace joined. */
export function InviteScreen() {
  const { token } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { session } = useAuthState();
  const signOut = useSignOut();
  return (
    <>
      <title>Invitation · Tasklane</title>
      <InvitePage
        token={token}
        signedInAs={session?.user.email}
        onJoined={(workspace) => {
          queryClient.setQueryData(workspaceKeys.detail(workspace.slug), workspace);
          void queryClient.invalidateQueries({ queryKey: workspaceKeys.lists() });
          toast.success(`You joined ${workspace.name} as ${workspace.role}.`);
          void navigate({ to: paths.workspace, params: { slug: workspace.slug } });
        }}
        // The guards send the signed-out visitor to sign in, and back here afterwards.
        onSwitchAccount={() => signOut.mutate()}
      />
    </>
  );
}
