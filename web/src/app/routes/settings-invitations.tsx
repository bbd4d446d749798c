/** `/w/:slug/settings/invitations`: placeholder until the Invitations tab is built. */
export function SettingsInvitationsScreen() {
  return (
    <section aria-labelledby="settings-invitations-title">
      <h2 id="settings-invitations-title">Invitations</h2>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
