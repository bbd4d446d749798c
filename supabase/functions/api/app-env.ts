/** The types every part of the API shares: what createApp needs, and what middleware puts on `c.var`. */
import type { Context } from 'hono';
import type { RequestIdVariables } from 'hono/request-id';
import type { CredentialVerifier } from '../_shared/auth/credential-verifier.ts';
import type { Database } from '../_shared/db.ts';
import type { Logger } from '../_shared/logger.ts';
import type { Mailer } from '../_shared/mail/mailer.ts';
import type { RequestCountRow } from '../_shared/auth/request-counts.queries.ts';
import type { Principal } from '../_shared/principal.ts';
import type { StorageClient } from '../_shared/storage.ts';
import type { WebhookDestinations } from './webhooks/webhook-destination.ts';
import type { PrespentExportBudget } from './export/export-budget.ts';
import type { KeyClaim } from './idempotency/key-claim.ts';

export interface AppDeps {
  db: Database;
  logger: Logger;
  /** Browser origins allowed to call the API (CORS); empty means none. */
  allowedOrigins: readonly string[];
  /** Verifies the bearer credential of every request to a route that is not public. */
  credentials: CredentialVerifier;
  /** Requests per minute per user or API token, and per IP address; RATE_LIMIT_PER_MINUTE by default. */
  rateLimits?: RateLimits;
  /**
   * The address of the request's connection, as the runtime knows it (index.ts reads Deno.serve's
   * `remoteAddr`); the per-IP rate limit uses it when X-Forwarded-For names no address.
   */
  connectionAddress?: (c: Context<AppEnv>) => string | undefined;
  /** Proxies in front of the API that append to X-Forwarded-For (client-address.ts); 1 by default. */
  trustedProxyHops?: number;
  /** Sends e-mail, such as invitations (docs/decisions/0008); without one, no mail is sent. */
  mailer?: Mailer;
  /**
   * The web app's address, without a trailing slash, that links in e-mails point into (an invitation's
   * `accept_url` is `${appUrl}/invite/{token}`). index.ts always sets it (env.ts: APP_URL); invitations
   * cannot be created without it.
   */
  appUrl?: string;
  /**
   * The API's public address, without a trailing slash, that absolute links in answers start with (an
   * export's `download_url`): index.ts sets `{SUPABASE_URL}/functions/v1/api` (http/api-url.ts). Without
   * it, the request's own origin and /api, right only when the app is called directly.
   */
  apiUrl?: string;
  /** How long an export may stream in all; EXPORT_DEADLINE_SECONDS by default (tests set less). */
  exportDeadlineMs?: number;
  /**
   * Supabase Storage, called as the service, for attachments and avatars; without it (no key to call it
   * with), their routes answer `503 unavailable`.
   */
  storage?: StorageClient;
  /**
   * The project's secret key (index.ts: the one Storage is called with), which the scheduler sends to the
   * internal routes (POST /v1/internal/notification-mail); without it, they answer `401`.
   */
  serviceKey?: string;
  /** How long a person's first "at once" notification waits for others to join its mail; 120 s by default. */
  notificationMailBatchSeconds?: number;
  /**
   * How a webhook's URL is judged when it is saved: the resolver its host is looked up with, and whether
   * plain http to loopback is allowed (only where the stand-in runs). Without it, no name resolves.
   */
  webhookDestinations?: WebhookDestinations;
  /**
   * Asks the webhook dispatcher to send what is due, without waiting (index.ts calls its function); called
   * after each request that changed something. Without it, deliveries wait for the scheduled run.
   */
  wakeWebhookDispatcher?: () => void;
  /**
   * Whether issuing an upload URL also sweeps expired uploads, at most every 10 minutes per instance
   * (files/upload-sweep.ts); yes by default. Tests that count a request's round trips turn it off.
   */
  sweepUploads?: boolean;
}

export interface RateLimits {
  user: number;
  ip: number;
}

export interface PrincipalVariables {
  /** The verified caller. */
  principal: Principal;
  /** The request as authentication counted it against the caller's rate limit, with their credential. */
  principalCount?: RequestCountRow;
  /**
   * The same, still on its way: for a request that changes nothing, the count travels with its first
   * transaction (docs/decisions/0030); undefined once it came, when the credential was refused.
   */
  principalCountAhead?: Promise<RequestCountRow | undefined>;
  /** The Idempotency-Key's claim authentication sent with the credential's check (idempotency/key-claim.ts). */
  idempotencyClaim?: KeyClaim;
  /** The export's budget, spent with the credential's check (export/export-budget.ts). */
  exportBudget?: PrespentExportBudget;
}

export interface AfterCommitVariables {
  /**
   * Set while the request runs inside one transaction that commits after the route (an Idempotency-Key):
   * work to do once it committed (middleware/idempotency.ts, `afterCommit`).
   */
  afterCommit?: (() => Promise<void>)[];
}

/** What every request has on `c.var`; `principal` is there once authentication has passed. */
export interface AppEnv {
  Variables: RequestIdVariables & Partial<PrincipalVariables> & AfterCommitVariables;
}

/** What a route behind authentication (every route but the public ones) has on `c.var`. */
export interface AuthenticatedEnv {
  Variables: RequestIdVariables & PrincipalVariables & AfterCommitVariables;
}
