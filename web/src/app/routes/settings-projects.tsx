/** `/w/:slug/settings/projects`: placeholder until the Projects tab is built. */
export function SettingsProjectsScreen() {
  return (
    <section aria-labelledby="settings-projects-title">
      <h2 id="settings-projects-title">Projects</h2>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
