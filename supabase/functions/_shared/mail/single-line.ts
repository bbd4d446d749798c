/** Text for a subject line, which must stay one line: every run of white space made one space. */
export function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
