import { resolve } from 'node:path';
import { z } from 'zod';
import { readEmailTemplates, type EmailTemplates } from './auth/email-templates.ts';
import { CLI_RATE_LIMITS, type AuthRateLimits } from './auth/rate-limits.ts';
import type { EventsRateLimit } from './realtime/events-rate.ts';
import type { ClientPresenceLimit } from './realtime/client-presence-limit.ts';
import { payloadLimitOf } from './realtime/settings.ts';
import { parseFileSize } from './storage/file-size.ts';
import { SIGNED_UPLOAD_URL_LIFETIME_SECONDS } from '../supabase/functions/_shared/limits.ts';

const port = (fallback: number) => z.coerce.number().int().min(1).max(65_535).default(fallback);
const perWindow = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
const urlList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .optional();

const EnvSchema = z.object({
  TASKLANE_DATA_DIR: z.string().min(1).default('.tasklane'),
  TASKLANE_API_PORT: port(54321),
  TASKLANE_DB_PORT: port(54322),
  TASKLANE_MAILBOX_PORT: port(54324),
  TASKLANE_WEB_PORT: port(5173),
  TASKLANE_WEB: z.enum(['on', 'off']).default('on'),
  TASKLANE_AUTH_REFRESH_TOKEN_REUSE_INTERVAL: z.coerce.number().int().min(0).default(10),
  TASKLANE_AUTH_EMAIL_CONFIRMATIONS: z.enum(['on', 'off']).default('off'),
  TASKLANE_AUTH_SECURE_PASSWORD_CHANGE: z.enum(['on', 'off']).default('off'),
  TASKLANE_AUTH_SECURE_EMAIL_CHANGE: z.enum(['on', 'off']).default('on'),
  TASKLANE_AUTH_SITE_URL: z.url().optional(),
  TASKLANE_AUTH_ADDITIONAL_REDIRECT_URLS: urlList,
  TASKLANE_AUTH_RATE_LIMIT_TOKEN_REFRESH: perWindow(CLI_RATE_LIMITS.tokenRefresh),
  TASKLANE_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: perWindow(CLI_RATE_LIMITS.signInSignUps),
  TASKLANE_AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: perWindow(CLI_RATE_LIMITS.tokenVerifications),
  TASKLANE_AUTH_RATE_LIMIT_MFA: perWindow(CLI_RATE_LIMITS.mfaChallengeAndVerify),
  TASKLANE_STORAGE_FILE_SIZE_LIMIT: z.string().default('50MiB'),
  // Never longer than hosted Storage's: a pending upload outlives its URL (docs/decisions/0024).
  TASKLANE_STORAGE_UPLOAD_URL_EXPIRES_IN: z.coerce
    .number()
    .int()
    .min(1)
    .max(SIGNED_UPLOAD_URL_LIFETIME_SECONDS)
    .default(SIGNED_UPLOAD_URL_LIFETIME_SECONDS),
  TASKLANE_NOTIFICATION_MAIL_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  TASKLANE_WEBHOOK_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  TASKLANE_REALTIME_JOIN_ERROR_BACKOFF_MS: z.coerce.number().int().min(0).default(5_000),
  TASKLANE_REALTIME_CONNECT_ERROR_BACKOFF_MS: z.coerce.number().int().min(0).default(2_000),
  TASKLANE_REALTIME_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  TASKLANE_REALTIME_TOKEN_RECHECK_MS: z.coerce.number().int().min(100).default(300_000),
  TASKLANE_REALTIME_MAX_PAYLOAD_SIZE_IN_KB: z.coerce.number().int().min(1).default(3_000),
  TASKLANE_REALTIME_MAX_CLIENT_PRESENCE_EVENTS_PER_WINDOW: z.coerce.number().int().min(1).default(5),
  TASKLANE_REALTIME_CLIENT_PRESENCE_WINDOW_MS: z.coerce.number().int().min(1).default(30_000),
  TASKLANE_REALTIME_REPLICATION_READY_DELAY_MS: z.coerce.number().int().min(0).default(0),
  TASKLANE_REALTIME_MAX_EVENTS_PER_SECOND: z.coerce.number().int().min(1).default(100),
  TASKLANE_REALTIME_EVENTS_RATE_TICK_MS: z.coerce.number().int().min(10).default(5_000),
});

/** Everything the stand-in can be told, read once from the environment. */
export interface StandInConfig {
  projectDir: string;
  dataDir: string;
  host: '127.0.0.1';
  ports: { api: number; db: number; mailbox: number; web: number };
  /** `off` starts the backend without the Vite dev server (for API-only work and some tests). */
  web: boolean;
  /** Seconds a rotated refresh token may still be used (GoTrue's `refresh_token_reuse_interval`). */
  refreshTokenReuseIntervalSeconds: number;
  auth: {
    /** `[auth.email] enable_confirmations`: off (the default) confirms sign-ups at once. */
    emailConfirmations: boolean;
    /** `[auth.email] secure_password_change`: on, a session older than a day needs a nonce to change the password. */
    securePasswordChange: boolean;
    /** `[auth.email] double_confirm_changes`: on (hosted's default), both addresses confirm an e-mail change. */
    secureEmailChange: boolean;
    /** `[auth] site_url` and `additional_redirect_urls`; by default the web app's two addresses. */
    siteUrl: string;
    additionalRedirectUrls: string[];
    rateLimits: AuthRateLimits;
    /** `[auth.email.template.*]` of supabase/config.toml, read and checked at start-up. */
    emailTemplates: EmailTemplates;
  };
  storage: StorageSettings;
  /** How often the scheduler asks the API to send the notification mail that is due (pg_cron: every minute). */
  notificationMailIntervalMs: number;
  /** How often the webhook dispatcher is called, as pg_cron does every minute on hosted Supabase. */
  webhookDispatchIntervalMs: number;
  /**
   * Realtime's backoffs (hosted: 5 s after a refused join, 2 s after a refused handshake), idle timeout,
   * how often a joined channel is checked again (hosted: 5 min), and the tenant's limits on payloads
   * and on a client's presence messages (hosted: 3,000 KB; 5 in 30 s); how long a join waits for its
   * replication to be ready (0: at once).
   */
  realtime: {
    joinErrorBackoffMs: number;
    connectErrorBackoffMs: number;
    idleTimeoutMs: number;
    tokenRecheckMs: number;
    maxPayloadBytes: number;
    clientPresenceLimit: ClientPresenceLimit;
    replicationReadyDelayMs: number;
    eventsRate: EventsRateLimit;
  };
}

/** `[storage] file_size_limit` of the CLI's config.toml, and the lifetime of signed upload URLs. */
export interface StorageSettings {
  /** Bytes; the most any bucket accepts, whatever its own limit. */
  fileSizeLimit: number;
  uploadUrlExpiresInSeconds: number;
}

/** Which environment variable moves which port, for error messages that say how to fix a clash. */
export const PORT_VARIABLES = {
  api: 'TASKLANE_API_PORT',
  db: 'TASKLANE_DB_PORT',
  mailbox: 'TASKLANE_MAILBOX_PORT',
  web: 'TASKLANE_WEB_PORT',
} as const;

export function readConfig(env: NodeJS.ProcessEnv = process.env, projectDir = process.cwd()): StandInConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const names = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new Error(`Invalid stand-in settings: ${names}. Ports are whole numbers from 1 to 65535.`);
  }
  const vars = parsed.data;
  return {
    projectDir,
    dataDir: resolve(projectDir, vars.TASKLANE_DATA_DIR),
    host: '127.0.0.1',
    ports: {
      api: vars.TASKLANE_API_PORT,
      db: vars.TASKLANE_DB_PORT,
      mailbox: vars.TASKLANE_MAILBOX_PORT,
      web: vars.TASKLANE_WEB_PORT,
    },
    web: vars.TASKLANE_WEB === 'on',
    refreshTokenReuseIntervalSeconds: vars.TASKLANE_AUTH_REFRESH_TOKEN_REUSE_INTERVAL,
    auth: {
      emailConfirmations: vars.TASKLANE_AUTH_EMAIL_CONFIRMATIONS === 'on',
      securePasswordChange: vars.TASKLANE_AUTH_SECURE_PASSWORD_CHANGE === 'on',
      secureEmailChange: vars.TASKLANE_AUTH_SECURE_EMAIL_CHANGE === 'on',
      siteUrl: vars.TASKLANE_AUTH_SITE_URL ?? `http://localhost:${vars.TASKLANE_WEB_PORT}`,
      additionalRedirectUrls: vars.TASKLANE_AUTH_ADDITIONAL_REDIRECT_URLS ?? [
        `http://127.0.0.1:${vars.TASKLANE_WEB_PORT}`,
      ],
      rateLimits: {
        tokenRefresh: vars.TASKLANE_AUTH_RATE_LIMIT_TOKEN_REFRESH,
        signInSignUps: vars.TASKLANE_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS,
        tokenVerifications: vars.TASKLANE_AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS,
        mfaChallengeAndVerify: vars.TASKLANE_AUTH_RATE_LIMIT_MFA,
      },
      emailTemplates: readEmailTemplates(projectDir),
    },
    storage: {
      fileSizeLimit: storageFileSizeLimit(vars.TASKLANE_STORAGE_FILE_SIZE_LIMIT),
      uploadUrlExpiresInSeconds: vars.TASKLANE_STORAGE_UPLOAD_URL_EXPIRES_IN,
    },
    notificationMailIntervalMs: vars.TASKLANE_NOTIFICATION_MAIL_INTERVAL_MS,
    webhookDispatchIntervalMs: vars.TASKLANE_WEBHOOK_DISPATCH_INTERVAL_MS,
    realtime: {
      joinErrorBackoffMs: vars.TASKLANE_REALTIME_JOIN_ERROR_BACKOFF_MS,
      connectErrorBackoffMs: vars.TASKLANE_REALTIME_CONNECT_ERROR_BACKOFF_MS,
      idleTimeoutMs: vars.TASKLANE_REALTIME_IDLE_TIMEOUT_MS,
      tokenRecheckMs: vars.TASKLANE_REALTIME_TOKEN_RECHECK_MS,
      maxPayloadBytes: payloadLimitOf(vars.TASKLANE_REALTIME_MAX_PAYLOAD_SIZE_IN_KB),
      clientPresenceLimit: {
        maxCalls: vars.TASKLANE_REALTIME_MAX_CLIENT_PRESENCE_EVENTS_PER_WINDOW,
        windowMs: vars.TASKLANE_REALTIME_CLIENT_PRESENCE_WINDOW_MS,
      },
      replicationReadyDelayMs: vars.TASKLANE_REALTIME_REPLICATION_READY_DELAY_MS,
      eventsRate: {
        maxEventsPerSecond: vars.TASKLANE_REALTIME_MAX_EVENTS_PER_SECOND,
        tickMs: vars.TASKLANE_REALTIME_EVENTS_RATE_TICK_MS,
      },
    },
  };
}

function storageFileSizeLimit(text: string): number {
  const bytes = parseFileSize(text);
  if (bytes === null)
    throw new Error('Invalid stand-in settings: TASKLANE_STORAGE_FILE_SIZE_LIMIT (e.g. 50MiB).');
  return bytes;
}

export function apiUrl(config: StandInConfig): string {
  return `http://${config.host}:${config.ports.api}`;
}

export function webUrl(config: StandInConfig): string {
  return `http://localhost:${config.ports.web}`;
}

export function databaseUrl(config: StandInConfig, database = 'postgres'): string {
  return `postgresql://postgres:postgres@${config.host}:${config.ports.db}/${database}`;
}
