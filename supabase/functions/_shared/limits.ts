/**
 * Business constants and limits (docs/product.md#limits), the single source for the API,
 * `GET /v1/meta/limits` and the web app. Pure constants with no imports, so the browser bundle can import this
 * file as is.
 */

const KIB = 1024;
const MIB = 1024 * KIB;

export const WORKSPACES_PER_USER = 10;
/** Pending invitations count towards this. */
export const MEMBERS_PER_WORKSPACE = 50;
export const PROJECTS_PER_WORKSPACE = 100;
export const TASKS_PER_PROJECT = 20_000;
export const LABELS_PER_WORKSPACE = 100;
export const LABELS_PER_TASK = 10;
export const COMMENTS_PER_TASK = 1_000;
/** `<@USER_ID>` mentions in one comment or task description, repeats counted. */
export const MENTIONS_PER_TEXT = 50;
export const ATTACHMENTS_PER_TASK = 20;
export const ATTACHMENT_MAX_BYTES = 25 * MIB;
/**
 * Bytes a workspace's attachments may take in Storage: every object in its folder (those no attachment
 * names any more included, until they are removed) and what its pending uploads declared.
 */
export const WORKSPACE_STORAGE_BYTES = 1024 * MIB;
/** Attachment uploads one person may have pending (declared, neither completed nor expired) at once. */
export const PENDING_UPLOADS_PER_USER = 20;
export const AVATAR_MAX_BYTES = 2 * MIB;
export const INVITATION_LIFETIME_DAYS = 7;
/** Active (unrevoked, unexpired) tokens per user. */
export const API_TOKENS_PER_USER = 10;
export const API_TOKEN_LIFETIME_DAYS = { min: 1, max: 365, default: 90 } as const;
export const WEBHOOKS_PER_WORKSPACE = 10;
export const WEBHOOK_PAYLOAD_MAX_BYTES = 256 * KIB;
export const WEBHOOK_TIMEOUT_SECONDS = 10;
/** `user` applies per user or API token, `ip` per IP address of requests without credentials. */
export const RATE_LIMIT_PER_MINUTE = { user: 600, ip: 60 } as const;
/** Proxies in front of the API that append to X-Forwarded-For: hosted Supabase's gateway. */
export const DEFAULT_TRUSTED_PROXY_HOPS = 1;
/** API tokens and invitations one user may create per hour. */
export const SENSITIVE_CREATIONS_PER_HOUR = 20;
/** Invitations to one address in 24 hours, from all workspaces: nobody can mail-bomb a stranger. */
export const INVITATIONS_PER_RECIPIENT_PER_DAY = 5;
/** Exports of one workspace per hour: an export reads the whole workspace. */
export const EXPORTS_PER_WORKSPACE_PER_HOUR = 10;
/**
 * How long one export may stream, however steadily its client reads: it holds a transaction and a
 * database connection throughout, so a client that reads slowly but never stops is cut off.
 */
export const EXPORT_DEADLINE_SECONDS = 5 * 60;
export const PAGE_SIZE = { default: 50, max: 200 } as const;
/** The longest text a task list searches for (`q`). */
export const TASK_SEARCH_MAX_LENGTH = 100;
/** Task lists with `q` one user may have running at once, per instance of the API function. */
export const CONCURRENT_TASK_SEARCHES_PER_USER = 2;
/**
 * How long one SQL statement may run, and a transaction sit idle between two, before Postgres ends it
 * (the request answers 503). The export streams one long snapshot to a reader that may take its time
 * with each chunk, so it has bounds of its own.
 */
export const STATEMENT_TIMEOUT_SECONDS = { default: 5, export: 30 } as const;
export const IDLE_IN_TRANSACTION_TIMEOUT_SECONDS = { default: 10, export: 60 } as const;
export const IDEMPOTENCY_KEY_LIFETIME_HOURS = 24;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/**
 * After how long an Idempotency-Key's claim is taken to belong to a request that died (docs/decisions/
 * 0016): far longer than a request's few statements may take (STATEMENT_TIMEOUT_SECONDS each).
 */
export const IDEMPOTENCY_CLAIM_STALE_SECONDS = 60;
export const JSON_BODY_MAX_BYTES = 1 * MIB;
/** A body that carries a file (an import): as much as hosted Supabase lets a request to a function carry. */
export const FILE_BODY_MAX_BYTES = 20 * MIB;
export const ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 60;
/** Hosted Storage's own (UPLOAD_SIGNED_URL_EXPIRATION_TIME): the API cannot choose it. */
export const SIGNED_UPLOAD_URL_LIFETIME_SECONDS = 2 * 60 * 60;
/**
 * How long a declared upload stays pending (counted, completable) before it expires and is swept: longer
 * than its upload URL lives, which Storage signs a moment after the upload is declared (docs/decisions/0024).
 */
export const PENDING_UPLOAD_LIFETIME_SECONDS = SIGNED_UPLOAD_URL_LIFETIME_SECONDS + 5 * 60;
export const SIGNED_DOWNLOAD_URL_LIFETIME_SECONDS = 5 * 60;
/** Avatars are shown everywhere a person is, so their signed URLs last longer than a download's. */
export const SIGNED_AVATAR_URL_LIFETIME_SECONDS = 60 * 60;
/** Levels of arrays and objects in a body: Tasklane's bodies need three, hostile ones nest thousands. */
export const JSON_BODY_MAX_DEPTH = 32;
