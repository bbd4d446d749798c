/** Flattens an unknown thrown value into log fields. For server logs only, never for a response. */
import type { LogFields } from './logger.ts';

export function describeError(error: unknown): LogFields {
  if (!(error instanceof Error)) return { error_name: typeof error, error_message: String(error) };
  const code = 'code' in error ? error.code : undefined;
  return {
    error_name: error.name,
    error_message: error.message,
    error_code: typeof code === 'string' ? code : undefined,
    error_stack: error.stack,
  };
}
