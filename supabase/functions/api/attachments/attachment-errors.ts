/** The attachment error that the service, the routes and the queries' refusals all answer with. */
import { AppError } from '../../_shared/errors.ts';

export function attachmentNotFound(): AppError {
  return new AppError('not_found', 'There is no attachment with this id in your workspaces.');
}
