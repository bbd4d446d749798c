/** `/w/:slug/settings/members`: placeholder until the Members tab is built. */
export function SettingsMembersScreen() {
  return (
    <section aria-labelledby="settings-members-title">
      <h2 id="settings-members-title">Members</h2>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
