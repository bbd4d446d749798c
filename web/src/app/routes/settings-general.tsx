/** `/w/:slug/settings/general`: placeholder until the General tab is built. */
export function SettingsGeneralScreen() {
  return (
    <section aria-labelledby="settings-general-title">
      <h2 id="settings-general-title">General</h2>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
