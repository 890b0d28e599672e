import { Entity, Service } from 'electrodb';
import { timestamps } from '../../kernel/db/attributes.js';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';
import { customerCopy } from '../customers/copies.js';
import { CONVERSATION_STATUSES, SENDER_TYPES, SENTIMENTS, SOURCES, STORED_REQUEST_STATUSES } from './values.js';

const customer = {
  customerId: { type: 'string', required: true, readOnly: true },
  customerEmail: { type: 'string', required: true, readOnly: true },
  customerName: { type: 'string' },
} as const;

/**
 * Lists: newest first per project (gsi1) and per status (gsi2). The customer's history is a copy of
 * each under the customer (CustomerFeedback).
 */
const listIndexes = (id: 'conversationId' | 'requestId') =>
  ({
    byProject: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['projectId', 'env'] },
      sk: { field: 'gsi1sk', composite: ['createdAt', id] },
    },
    byStatus: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['projectId', 'env', 'status'] },
      sk: { field: 'gsi2sk', composite: ['createdAt', id] },
    },
  }) as const;

export const FeedbackConversation = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'feedbackConversation', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          conversationId: { type: 'string', required: true, readOnly: true },
          ...customer,
          subject: { type: 'string', required: true },
          status: { type: CONVERSATION_STATUSES, required: true, default: 'open' },
          rating: { type: 'number' },
          sentiment: { type: SENTIMENTS, required: true },
          source: { type: SOURCES, required: true, readOnly: true },
          requestId: { type: 'string', readOnly: true },
          ...timestamps,
        },
        indexes: {
          byId: {
            collection: 'thread',
            pk: { field: 'pk', composite: ['projectId', 'env', 'conversationId'] },
            sk: { field: 'sk', composite: [] },
          },
          ...listIndexes('conversationId'),
        },
      },
      entityConfig(),
    ),
);

/** Messages live in their conversation's item collection: the thread is one Query. */
export const FeedbackMessage = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'feedbackMessage', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          conversationId: { type: 'string', required: true, readOnly: true },
          messageId: { type: 'string', required: true, readOnly: true },
          senderType: { type: SENDER_TYPES, required: true, readOnly: true },
          body: { type: 'string', required: true, readOnly: true },
          createdAt: { type: 'string', required: true, readOnly: true, default: () => new Date().toISOString() },
        },
        indexes: {
          byConversation: {
            collection: 'thread',
            pk: { field: 'pk', composite: ['projectId', 'env', 'conversationId'] },
            sk: { field: 'sk', composite: ['createdAt', 'messageId'] },
          },
        },
      },
      entityConfig(),
    ),
);

export const FeedbackRequest = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'feedbackRequest', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          requestId: { type: 'string', required: true, readOnly: true },
          /** The rating page has no API key: the account for its events comes from here. */
          accountId: { type: 'string', required: true, readOnly: true },
          ...customer,
          ticketId: { type: 'string', readOnly: true },
          message: { type: 'string', readOnly: true },
          status: { type: STORED_REQUEST_STATUSES, required: true, default: 'pending' },
          emailId: { type: 'string' },
          conversationId: { type: 'string' },
          rating: { type: 'number' },
          sentAt: { type: 'string' },
          openedAt: { type: 'string' },
          respondedAt: { type: 'string' },
          ...timestamps,
        },
        indexes: {
          byId: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'requestId'] },
            sk: { field: 'sk', composite: [] },
          },
          ...listIndexes('requestId'),
        },
      },
      entityConfig(),
    ),
);

/**
 * A small copy of each conversation and request under its customer's partition, kept in step with its
 * status in the same transaction: the customer detail reads it with the record (customers/history.ts).
 */
export const CustomerFeedback = lazy(() =>
  customerCopy('customerFeedback', 'feedbackId', {
    /** The conversation's or the request's id. */
    feedbackId: { type: 'string', required: true, readOnly: true },
    type: { type: ['conversation', 'request'] as const, required: true, readOnly: true },
    status: { type: [...CONVERSATION_STATUSES, ...STORED_REQUEST_STATUSES] as const, required: true },
    subject: { type: 'string', readOnly: true },
    rating: { type: 'number' },
    sentiment: { type: SENTIMENTS },
    /** A request's expiry runs from here (see present.ts). */
    sentAt: { type: 'string' },
  }),
);

export const feedbackService = lazy(
  () =>
    new Service(
      {
        conversation: FeedbackConversation,
        message: FeedbackMessage,
        request: FeedbackRequest,
        copy: CustomerFeedback,
      },
      entityConfig(),
    ),
);
