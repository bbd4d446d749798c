const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` is a UUID in its canonical hyphenated form, as ids in GoTrue's paths must be. */
export function isUuid(text: string | undefined): text is string {
  return text !== undefined && UUID.test(text);
}
