// Generated from openapi.yaml by `npm run gen` (scripts/generate-vocabulary.ts): do not edit.
// Each list is in the order the spec gives (the board orders its columns by TASK_STATUSES).

export const API_TOKEN_SCOPES = ['read', 'write'] as const;
export const WORKSPACE_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export const TASK_STATUSES = ['backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled'] as const;
export const TASK_PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export const EVENT_TYPES = [
  'task.created',
  'task.updated',
  'task.moved',
  'task.deleted',
  'task.restored',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'project.created',
  'project.updated',
  'project.archived',
  'project.unarchived',
  'project.deleted',
  'label.created',
  'label.updated',
  'label.deleted',
  'member.added',
  'member.updated',
  'member.removed',
  'attachment.added',
  'attachment.deleted',
] as const;
export const IMPORT_SOURCES = ['trello', 'csv', 'tasklane'] as const;
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed'] as const;
export const ATTACHMENT_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/csv',
  'application/json',
  'application/zip',
] as const;
export const ERROR_CODES = [
  'bad_request',
  'unauthenticated',
  'forbidden',
  'mfa_required',
  'insufficient_scope',
  'email_not_confirmed',
  'not_found',
  'method_not_allowed',
  'slug_taken',
  'project_key_taken',
  'project_archived',
  'project_deleted',
  'task_not_deleted',
  'label_exists',
  'comment_deleted',
  'upload_incomplete',
  'already_member',
  'invitation_exists',
  'last_owner',
  'limit_reached',
  'idempotency_key_in_use',
  'invitation_expired',
  'invitation_revoked',
  'precondition_failed',
  'payload_too_large',
  'unsupported_media_type',
  'validation_failed',
  'idempotency_key_reused',
  'rate_limited',
  'internal',
  'unavailable',
] as const;
export const NOTIFICATION_TYPES = [
  'assigned',
  'mentioned',
  'commented',
  'status_changed',
  'due_soon',
  'overdue',
  'invitation_accepted',
] as const;
export const NOTIFICATION_DELIVERIES = ['inbox', 'email_now', 'email_digest', 'off'] as const;
export const TASK_SORTS = [
  'position',
  'updated_at',
  '-updated_at',
  'created_at',
  '-created_at',
  'priority',
  '-priority',
  'due_date',
  '-due_date',
] as const;

/** components.schemas.ProjectKey. */
export const PROJECT_KEY = { minLength: 2, maxLength: 10, pattern: /^[A-Z][A-Z0-9]+$/ } as const;
/** components.schemas.CreateWorkspace.properties.slug. */
export const WORKSPACE_SLUG = { minLength: 3, maxLength: 40, pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/ } as const;
