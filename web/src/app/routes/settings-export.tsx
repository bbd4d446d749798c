/** `/w/:slug/settings/export`: placeholder until the Export tab is built. */
export function SettingsExportScreen() {
  return (
    <section aria-labelledby="settings-export-title">
      <h2 id="settings-export-title">Export</h2>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
