import { ApiTokensSection } from '../../features/account/components/api-tokens-section.tsx';
import { PasswordSection } from '../../features/account/components/password-section.tsx';
import { ProfileSection } from '../../features/account/components/profile-section.tsx';
import { SignOutEverywhereSection } from '../../features/account/components/sign-out-everywhere-section.tsx';
import { TwoFactorSection } from '../../features/account/components/two-factor-section.tsx';
import { NotificationSettingsSection } from '../../features/notifications/components/notification-settings-section.tsx';
import { ApiHealthStatus } from '../../features/health/components/api-health-status.tsx';
import { PanelSection } from '../../components/ui/panel-section.tsx';

export function AccountScreen() {
  return (
    <div className="stack">
      <title>Account · Tasklane</title>
      <h1 className="page-title">Account</h1>
      <ProfileSection />
      <TwoFactorSection />
      <NotificationSettingsSection />
      <PasswordSection />
      <ApiTokensSection />
      <SignOutEverywhereSection />
      <PanelSection title="System status">
        <ApiHealthStatus />
      </PanelSection>
    </div>
  );
}
