import { validationFailed } from './errors.ts';

const MAX_LENGTH = 254;
// The same shape check as GoTrue's checkmail.ValidateFormat, without the DNS part.
const EMAIL_FORMAT =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** Validates an e-mail address as GoTrue's signup does and returns it lower-cased (docs/product.md#validation). */
export function normalizeEmail(email: string | undefined): string {
  const trimmed = (email ?? '').trim();
  if (trimmed === '') throw validationFailed('An email address is required');
  if (trimmed.length > MAX_LENGTH) throw validationFailed('An email address is too long');
  if (!EMAIL_FORMAT.test(trimmed)) throw validationFailed('Unable to validate email address: invalid format');
  return trimmed.toLowerCase();
}
