import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useLocation, useNavigate } from '@tanstack/react-router';
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
  const emailFromLink = useLocation({ select: (location) => emailInFragment(location.hash) });
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
        emailFromLink={emailFromLink}
        onJoined={(workspace) => {
          queryClient.setQueryData(workspaceKeys.detail(workspace.slug), workspace);
          void queryClient.invalidateQueries({ queryKey: workspaceKeys.lists() });
          toast.success(`You joined ${workspace.name} as ${workspace.role}.`);
          void navigate({ to: paths.workspace, params: { slug: workspace.slug } });
        }}
        // Signed out, this page offers to sign up or in, and comes back here afterwards.
        onSwitchAccount={() => signOut.mutate()}
      />
    </>
  );
}

/**
 * The invitation e-mail's link ends in `#email=<address>` (api/invitations/invitation-mail.ts): a
 * fragment, which no server, log or Referer ever sees.
 */
function emailInFragment(hash: string): string | undefined {
  const email = new URLSearchParams(hash.replace(/^#/, '')).get('email')?.trim();
  return email && email.includes('@') ? email : undefined;
}
