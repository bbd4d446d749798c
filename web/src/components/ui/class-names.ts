/** The class attribute from a component's CSS-module classes and any passed in; falsy entries are skipped. */
export function classNames(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
