/** A body as sent or received: indented when it is JSON, as it is otherwise. */
export function prettyJson(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    return JSON.stringify(parsed, null, 2);
  } catch {
    return body;
  }
}
