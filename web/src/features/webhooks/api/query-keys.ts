import { createQueryKeys } from '../../../lib/query/query-keys.ts';

/** A workspace's webhooks: `list({ slug })` is all of them (a workspace holds at most 10). */
export const webhookKeys = createQueryKeys<{ slug: string }>('webhooks');

/** One webhook's delivery log (`list`) and single deliveries with their request and response (`detail`). */
export const webhookDeliveryKeys = createQueryKeys<{ slug: string; webhookId: string }>('webhook-deliveries');
