const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/**
 * The plain-text part of an HTML mail, as GoTrue's mailer derives it: the text without tags, a link's address
 * after its label, a paragraph per block.
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(head|style|title)\b[\s\S]*?<\/\1>/gi, '')
    // Line breaks in the source are layout, not text.
    .replace(/\s+/g, ' ')
    .replace(/<a\b[^>]*?href="([^"]*)"[^>]*>([\s\S]*?)<\/a\s*>/gi, (_link, href: string, label: string) => {
      const words = label.replace(/<[^>]+>/g, '').trim();
      return words === href ? href : `${words}: ${href}`;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|h[1-6]|tr|div|li)>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_entity, name: string) => ENTITIES[name] ?? '');
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line, index, lines) => line !== '' || (index > 0 && lines[index - 1] !== ''))
    .join('\n')
    .trim()
    .concat('\n');
}
