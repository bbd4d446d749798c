/** `/w/:slug/settings/labels`: placeholder until the Labels tab is built. */
export function SettingsLabelsScreen() {
  return (
    <section aria-labelledby="settings-labels-title">
      <h2 id="settings-labels-title">Labels</h2>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
