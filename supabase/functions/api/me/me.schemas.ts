/**
 * The rules for a person's account (docs/product.md#validation), written once: the API validates
 * `PATCH /v1/me` with them and the web's sign-up, sign-in, password and profile forms validate with the same
 * schemas. Imports nothing but zod, so the browser bundle can import this file as is.
 */
import { z } from 'zod';

export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_LENGTH = { min: 10, max: 72 } as const;
export const DISPLAY_NAME_LENGTH = { min: 1, max: 80 } as const;

export const EmailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('must be a valid e-mail address'));

export const PasswordSchema = z
  .string()
  .min(PASSWORD_LENGTH.min, `must be at least ${PASSWORD_LENGTH.min} characters`)
  .max(PASSWORD_LENGTH.max, `must be at most ${PASSWORD_LENGTH.max} characters`);

/** E-mail and password together, for the forms that set a password: it may not be the e-mail itself. */
export const CredentialsSchema = z
  .object({ email: EmailSchema, password: PasswordSchema })
  .refine((value) => value.password.trim().toLowerCase() !== value.email.toLowerCase(), {
    path: ['password'],
    message: 'must not be your e-mail address',
  });

export const DisplayNameSchema = z
  .string()
  .trim()
  .min(DISPLAY_NAME_LENGTH.min, 'must not be empty')
  .max(DISPLAY_NAME_LENGTH.max, `must be at most ${DISPLAY_NAME_LENGTH.max} characters`);

export const TIME_ZONE_MAX_LENGTH = 64;

/** Whether the runtime knows `name` as a time zone (Intl's IANA names; the database checks its own). */
const isKnownTimeZone = (name: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

/** An IANA time zone name, such as `Europe/Paris`; null is UTC. */
export const TimeZoneSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(TIME_ZONE_MAX_LENGTH, `must be at most ${TIME_ZONE_MAX_LENGTH} characters`)
  .refine(isKnownTimeZone, 'must be an IANA time zone name, such as Europe/Paris')
  .nullable();

/** `PATCH /v1/me`: JSON Merge Patch over the writable fields. */
export const UpdateMeBodySchema = z.strictObject({
  display_name: DisplayNameSchema,
  time_zone: TimeZoneSchema.optional(),
});
