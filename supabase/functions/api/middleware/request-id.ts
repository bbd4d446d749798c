/**
 * Request ids: a caller's `X-Request-Id` is kept when it is sane (word characters, `-` and `=`, at most
 * 128 of them), otherwise a UUID is made. Either way it is echoed on the response and set on `c.var`.
 */
import { requestId } from 'hono/request-id';

export const REQUEST_ID_MAX_LENGTH = 128;

export const requestIds = () => requestId({ limitLength: REQUEST_ID_MAX_LENGTH });
