import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../kernel/api/route.js';
import { dateQuery, pageMeta, pageQuery, uuid } from '../../kernel/api/schemas.js';
import { mailbox } from '../../kernel/mail/mailbox.js';
import { REF_PATTERN } from '../templates/keys.js';
import { batchBody, batchResult, EMAIL_STATUSES, emailRow, sendBody, sendResult, TEMPLATE_KEY_MAX } from './schemas.js';

const common = {
  group: 'emails' as const,
  tenancy: 'project' as const,
  scope: 'emails:send' as const,
  tags: ['Emails'],
};

export const emailRoutes = {
  sendEmail: defineRoute({
    ...common,
    id: 'sendEmail',
    method: 'POST',
    path: '/emails/send',
    summary: 'Send one email, immediately or scheduled',
    headers: [
      {
        name: 'Idempotency-Key',
        description:
          'Up to 256 characters. The same key within 24 hours returns the first send with deduplicated true; a different body with it is 422 idempotency.mismatch.',
      },
    ],
    body: sendBody,
    response: sendResult,
    problems: [
      'plan.email_limit',
      'idempotency.in_progress',
      'idempotency.mismatch',
      'template.not_found',
      'template.render_failed',
      'template.unknown_helper',
    ],
  }),
  sendEmailBatch: defineRoute({
    ...common,
    id: 'sendEmailBatch',
    method: 'POST',
    path: '/emails/batch',
    summary: 'Send up to 100 emails; each item succeeds or fails on its own',
    // The spec's two statements disagree (Starter or Pro); the certain part is Free's 403.
    plan: { minimum: 'starter', feature: 'Batch sending' },
    body: batchBody,
    response: batchResult,
  }),
  listEmails: defineRoute({
    ...common,
    id: 'listEmails',
    method: 'GET',
    path: '/emails',
    summary: 'List Email Logs rows, newest first',
    query: {
      ...pageQuery(),
      status: v.optional(v.picklist(EMAIL_STATUSES)),
      // One recipient, as a send names it: anything else cannot match and is refused (decisions: exact-match filters).
      to: v.optional(mailbox),
      // A template as a send names it (`@account/` for account templates): anything else cannot match.
      templateKey: v.optional(
        v.pipe(
          v.string(),
          v.maxLength(TEMPLATE_KEY_MAX),
          v.regex(
            REF_PATTERN,
            'Expected a template key (letters, digits, . _ -), with @account/ for account templates',
          ),
          v.metadata({ examples: ['welcome'] }),
        ),
      ),
      dateFrom: dateQuery,
      dateTo: dateQuery,
    },
    response: v.object({ emails: v.array(emailRow), ...pageMeta }),
  }),
  getEmail: defineRoute({
    ...common,
    id: 'getEmail',
    method: 'GET',
    path: '/emails/{id}',
    summary: 'One Email Logs row',
    params: { id: uuid },
    response: emailRow,
  }),
  cancelEmail: defineRoute({
    ...common,
    id: 'cancelEmail',
    method: 'DELETE',
    path: '/emails/{id}',
    summary: 'Cancel a scheduled send',
    params: { id: uuid },
    response: emailRow,
    problems: ['email.not_cancelable'],
  }),
} satisfies Record<string, RouteDef>;
