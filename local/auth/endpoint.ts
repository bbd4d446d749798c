import type { IncomingMessage } from 'node:http';
import type { AuthContext } from './context.ts';
import type { Reply } from './reply.ts';
import type { RouteParams } from '../gateway/route-table.ts';

/** What the auth service's route table maps each `"METHOD /path"` to. */
export type Endpoint = (
  context: AuthContext,
  req: IncomingMessage,
  url: URL,
  params: RouteParams,
) => Promise<Reply> | Reply;
