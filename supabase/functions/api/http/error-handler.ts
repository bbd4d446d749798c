/**
 * How failures become answers. An AppError is answered as itself. Anything else is a bug: it is logged
 * with the request id and answered `500 internal` with no word about the cause.
 */
import type { ErrorHandler, NotFoundHandler } from 'hono';
import { describeError } from '../../_shared/describe-error.ts';
import { AppError } from '../../_shared/errors.ts';
import type { Logger } from '../../_shared/logger.ts';
import type { AppEnv } from '../app-env.ts';
import { problemResponse } from './problem-response.ts';

export const errorHandler =
  (logger: Logger): ErrorHandler<AppEnv> =>
  (error, c) => {
    if (error instanceof AppError) {
      if (error.status >= 500 && error.cause !== undefined) {
        logger.warn(error.code, { request_id: c.var.requestId, ...describeError(error.cause) });
      }
      return problemResponse(c, error);
    }
    logger.error('unexpected error', { request_id: c.var.requestId, ...describeError(error) });
    return problemResponse(c, new AppError('internal'));
  };

export const notFoundHandler: NotFoundHandler<AppEnv> = (c) =>
  problemResponse(c, new AppError('not_found', `No route matches ${c.req.path}.`));
