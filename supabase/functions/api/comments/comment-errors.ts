/** The comment errors that the service, the routes and the queries' refusals all answer with. */
import { AppError } from '../../_shared/errors.ts';

export function commentNotFound(): AppError {
  return new AppError('not_found', 'There is no comment with this id in your workspaces.');
}
