/** A decorative spinner; the text next to it says what is loading. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
