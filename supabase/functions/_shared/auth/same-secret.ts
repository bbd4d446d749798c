/**
 * Whether a presented secret is the expected one, in time that does not depend on where they differ:
 * both are hashed first (so their lengths leak nothing either), then every byte is compared.
 */
export async function isSameSecret(presented: string, expected: string): Promise<boolean> {
  const digest = async (text: string) =>
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const [a, b] = await Promise.all([digest(presented), digest(expected)]);
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}
