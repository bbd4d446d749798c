/** The limits the API enforces, as GET /v1/meta/limits presents them. */
import type { Limits } from '../../_shared/api-types.ts';
import * as limits from '../../_shared/limits.ts';

export function describeLimits(): Limits {
  return {
    object: 'limits',
    workspaces_per_user: limits.WORKSPACES_PER_USER,
    members_per_workspace: limits.MEMBERS_PER_WORKSPACE,
    projects_per_workspace: limits.PROJECTS_PER_WORKSPACE,
    tasks_per_project: limits.TASKS_PER_PROJECT,
    labels_per_workspace: limits.LABELS_PER_WORKSPACE,
    labels_per_task: limits.LABELS_PER_TASK,
    comments_per_task: limits.COMMENTS_PER_TASK,
    mentions_per_text: limits.MENTIONS_PER_TEXT,
    attachments_per_task: limits.ATTACHMENTS_PER_TASK,
    attachment_max_bytes: limits.ATTACHMENT_MAX_BYTES,
    workspace_storage_bytes: limits.WORKSPACE_STORAGE_BYTES,
    pending_uploads_per_user: limits.PENDING_UPLOADS_PER_USER,
    avatar_max_bytes: limits.AVATAR_MAX_BYTES,
    invitation_lifetime_days: limits.INVITATION_LIFETIME_DAYS,
    api_tokens_per_user: limits.API_TOKENS_PER_USER,
    api_token_lifetime_days: { ...limits.API_TOKEN_LIFETIME_DAYS },
    webhooks_per_workspace: limits.WEBHOOKS_PER_WORKSPACE,
    webhook_payload_max_bytes: limits.WEBHOOK_PAYLOAD_MAX_BYTES,
    webhook_timeout_seconds: limits.WEBHOOK_TIMEOUT_SECONDS,
    rate_limit_per_minute: { ...limits.RATE_LIMIT_PER_MINUTE },
    sensitive_creations_per_hour: limits.SENSITIVE_CREATIONS_PER_HOUR,
    invitations_per_recipient_per_day: limits.INVITATIONS_PER_RECIPIENT_PER_DAY,
    exports_per_workspace_per_hour: limits.EXPORTS_PER_WORKSPACE_PER_HOUR,
    page_size: { ...limits.PAGE_SIZE },
    task_search_max_length: limits.TASK_SEARCH_MAX_LENGTH,
    concurrent_task_searches_per_user: limits.CONCURRENT_TASK_SEARCHES_PER_USER,
    statement_timeout_seconds: { ...limits.STATEMENT_TIMEOUT_SECONDS },
    idle_in_transaction_timeout_seconds: { ...limits.IDLE_IN_TRANSACTION_TIMEOUT_SECONDS },
    idempotency_key_lifetime_hours: limits.IDEMPOTENCY_KEY_LIFETIME_HOURS,
    idempotency_key_max_length: limits.IDEMPOTENCY_KEY_MAX_LENGTH,
    json_body_max_bytes: limits.JSON_BODY_MAX_BYTES,
    access_token_lifetime_seconds: limits.ACCESS_TOKEN_LIFETIME_SECONDS,
    signed_upload_url_lifetime_seconds: limits.SIGNED_UPLOAD_URL_LIFETIME_SECONDS,
    signed_download_url_lifetime_seconds: limits.SIGNED_DOWNLOAD_URL_LIFETIME_SECONDS,
  };
}
