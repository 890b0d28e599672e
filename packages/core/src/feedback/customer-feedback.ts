import type { TenantKey } from '../customers/record.js';
import { feedbackService } from './entities.js';
import { requestStatus } from './present.js';

/** A customer's latest conversations and requests together, newest first: one Query on their collection. */
export async function latestFeedbackForCustomer(ref: TenantKey, customerId: string, limit: number) {
  const { data } = await feedbackService.collections
    .customerFeedback({ projectId: ref.projectId, env: ref.env, customerId })
    .go({ order: 'desc', limit });
  const now = Date.now();
  return [
    ...data.conversation.map((c) => ({
      type: 'conversation' as const,
      id: c.conversationId,
      status: c.status as string,
      subject: c.subject as string | null,
      rating: c.rating ?? null,
      sentiment: c.sentiment as 'positive' | 'neutral' | 'negative' | null,
      createdAt: c.createdAt,
    })),
    ...data.request.map((r) => ({
      type: 'request' as const,
      id: r.requestId,
      status: requestStatus(r, now) as string,
      subject: null,
      rating: r.rating ?? null,
      sentiment: null,
      createdAt: r.createdAt,
    })),
  ]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, limit);
}
