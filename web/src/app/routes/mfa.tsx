import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { SecondFactorPanel } from '../../features/auth/components/second-factor-panel.tsx';
import { safeRedirectTarget } from '../../lib/auth/redirect-target.ts';

const route = getRouteApi('/mfa');

/** The code step on its own, for sessions that reach a screen before giving their second factor. */
export function MfaScreen() {
  const search = route.useSearch();
  const navigate = useNavigate();
  return (
    <SecondFactorPanel
      onVerified={() => void navigate({ href: safeRedirectTarget(search.redirect), replace: true })}
    />
  );
}
