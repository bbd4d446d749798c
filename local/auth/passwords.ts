import bcrypt from 'bcryptjs';
import { AuthError, validationFailed } from './errors.ts';

const BCRYPT_COST = 10;
const MIN_LENGTH = 10;
/** bcrypt ignores everything after 72 bytes, so longer passwords are refused rather than truncated. */
const MAX_BYTES = 72;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export function passwordMatches(password: string, hash: string | null): Promise<boolean> {
  return hash ? bcrypt.compare(password, hash) : Promise.resolve(false);
}

/** Tasklane's policy (docs/product.md#validation), reported with GoTrue's `weak_password` error shape. */
export function assertAcceptablePassword(password: string, email: string): void {
  if (Buffer.byteLength(password, 'utf8') > MAX_BYTES) {
    throw validationFailed(`Password cannot be longer than ${MAX_BYTES} characters`);
  }
  if ([...password].length < MIN_LENGTH) {
    throw weakPassword(`Password should be at least ${MIN_LENGTH} characters.`, 'length');
  }
  if (password.toLowerCase() === email.toLowerCase()) {
    throw weakPassword('Password should not be the same as the email address.', 'characters');
  }
}

function weakPassword(message: string, reason: string): AuthError {
  return new AuthError(422, 'weak_password', message, { weak_password: { reasons: [reason] } });
}
