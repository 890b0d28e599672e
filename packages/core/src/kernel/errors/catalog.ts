import * as v from 'valibot';

/**
 * Every error the service can answer: its HTTP status, what it means (the OpenAPI descriptions), the
 * message it carries and the schema of its `details`. Domain code raises them by code with `problem()`
 * (errors/problem.ts); the route table lists the domain codes each operation can answer (`problems`),
 * and the OpenAPI document enumerates them per status. Only valibot is imported here, so CDK, the
 * OpenAPI generator and the client build load it without domain code.
 *
 * Adding a code is one entry here; `message` takes the values the text needs, `details` is the
 * documented shape and `toDetails` builds it (without `toDetails` the message's argument is the details).
 */

export interface ProblemSpec<A> {
  status: number;
  summary: string;
  details?: v.GenericSchema;
  message: (args: A) => string;
  toDetails?: (args: A) => unknown;
  headers?: (args: A) => Record<string, string>;
}
type Common = { status: number; summary: string };

/** details given as is: the message reads them. */
function define<S extends v.GenericSchema>(
  spec: Common & {
    details: S;
    message: (details: v.InferInput<S>) => string;
    headers?: (details: v.InferInput<S>) => Record<string, string>;
  },
): ProblemSpec<v.InferInput<S>>;
/** details built from the message's arguments. */
function define<S extends v.GenericSchema, A = void>(
  spec: Common & { details: S; message: (args: A) => string; toDetails: (args: A) => v.InferInput<S> },
): ProblemSpec<A>;
/** no details. */
function define<A = void>(spec: Common & { message: (args: A) => string }): ProblemSpec<A>;
function define(spec: ProblemSpec<unknown>) {
  return spec;
}

const fieldIssue = v.object({
  field: v.string(),
  in: v.picklist(['body', 'query', 'path', 'header']),
  message: v.string(),
});
const fields = v.array(fieldIssue);
const projectChoice = v.object({ id: v.string(), slug: v.string(), name: v.string() });
const count = v.number();
const quota = v.object({ limit: v.string(), current: count, allowance: count, requested: count });
const quotaName = { emails: 'monthly email allowance', logEvents: 'monthly log event allowance' } as const;
const quotaMessage = (d: v.InferInput<typeof quota>, name: string) =>
  d.current >= d.allowance
    ? `The ${name} of ${d.allowance} is used up for this month.`
    : `This request needs ${d.requested} of the ${name} of ${d.allowance}, of which ${d.allowance - d.current} remain this month.`;

const fieldOnly = v.object({ field: v.string() });
/**
 * A bad list reports an issue per item: 20,000 wrong items in a 60 KB body answered 10 MB. The answer
 * names the first issues, and cuts a field path built from a client's long keys.
 */
const MAX_FIELD_ISSUES = 20;
const MAX_FIELD_PATH = 200;
const shownIssues = (issues: v.InferInput<typeof fields>) =>
  issues
    .slice(0, MAX_FIELD_ISSUES)
    .map((i) => (i.field.length > MAX_FIELD_PATH ? { ...i, field: `${i.field.slice(0, MAX_FIELD_PATH)}…` } : i));
/** An upload a message names (`attachments.<position>.uploadId`) that cannot be attached. */
type UploadRef = { uploadId: string; position: number };
type UploadIncomplete = UploadRef & { declaredBytes: number; storedBytes?: number };
const uploadFields = (ref: UploadRef, message: string) => ({
  fields: [{ field: `attachments.${ref.position}.uploadId`, in: 'body' as const, message }],
  uploadId: ref.uploadId,
});
const uploadRefused = (summary: string, text: () => string) =>
  define({
    status: 422,
    summary,
    details: v.object({ fields, uploadId: v.string() }),
    message: (_: UploadRef) => text(),
    toDetails: (a: UploadRef) => uploadFields(a, text()),
  });
const uploadIncompleteText = (a: UploadIncomplete) =>
  a.storedBytes === undefined
    ? 'Nothing was uploaded for this upload yet: PUT the file to its uploadUrl first.'
    : `The uploaded file has ${a.storedBytes} bytes, not the ${a.declaredBytes} declared.`;
const TEMPLATE_PARTS = ['subject', 'template', 'layout', 'partial'] as const;
type TemplatePart = (typeof TEMPLATE_PARTS)[number];
const templatePart = v.picklist(TEMPLATE_PARTS);
const partName = (part: TemplatePart, key: string) =>
  part === 'subject' ? `The subject of template ${key}` : `The ${part} ${key}`;
const slugTaken = (what: string) =>
  define({
    status: 422,
    summary: `another ${what} has this slug`,
    details: v.object({ field: v.string(), slug: v.string() }),
    message: (a: { slug: string }) => `The slug "${a.slug}" is already used by another ${what}.`,
    toDetails: ({ slug }: { slug: string }) => ({ field: 'slug', slug }),
  });
const customerTaken = (field: 'email' | 'externalId') =>
  define({
    status: 422,
    summary: `another customer has this ${field}`,
    details: fieldOnly,
    message: (a: { value: string }) => `A customer with the ${field} ${a.value} already exists.`,
    toDetails: () => ({ field }),
  });

/** A body field naming a record the project and environment do not hold (`categoryId`, `ticketId`). */
const unknownReference = (field: string, record: string) =>
  define({
    status: 422,
    summary: `${field} names no ${record} of this project and environment`,
    details: fieldOnly,
    message: () => `${field} does not name a ${record} of this project and environment.`,
    toDetails: () => ({ field }),
  });

export const PROBLEMS = {
  // The pipeline's codes: a route documents them from its properties (openapi/problems.ts).
  'auth.unauthorized': define({
    status: 401,
    summary: 'API key missing or invalid',
    message: (a: { revoked?: boolean } | void) =>
      a?.revoked
        ? 'The API key is invalid or has been revoked.'
        : 'A valid API key is required: send Authorization: Bearer <key>.',
  }),
  'auth.forbidden': define({
    status: 403,
    summary: "the key lacks the scope, or the caller's IP is not allowed",
    details: v.optional(v.object({ requiredScope: v.string() })),
    message: (a: { scope: string } | { fullAccess: true } | { ip: string }) =>
      'scope' in a
        ? `This API key lacks the scope ${a.scope}.`
        : 'fullAccess' in a
          ? 'This API key is limited to some scopes; this endpoint needs a key with full access (no scope list).'
          : `Requests from ${a.ip} are not allowed for this API key.`,
    toDetails: (a) => ('scope' in a ? { requiredScope: a.scope } : undefined),
  }),
  'rate_limit.exceeded': define({
    status: 429,
    summary: 'over the per-key rate limit; see Retry-After',
    details: v.object({ limit: count, retryAfter: count }),
    message: (d) => `Rate limit of ${d.limit} requests per minute exceeded. Retry in ${d.retryAfter} s.`,
    headers: (d) => ({ 'Retry-After': String(d.retryAfter) }),
  }),
  'project.required': define({
    status: 400,
    summary: 'the key reaches several projects and none is named; details.projects lists the choices',
    details: v.object({ projects: v.array(projectChoice) }),
    message: () =>
      'This API key reaches several projects: name one with the Service-Project header or the project query parameter.',
  }),
  'project.forbidden': define({
    status: 403,
    summary: "the named project is unknown or out of the key's reach; details.projects lists the reachable ones",
    details: v.optional(v.object({ projects: v.array(projectChoice) })),
    message: (a: { wanted?: string; projects?: v.InferInput<typeof projectChoice>[] }) =>
      a.wanted === undefined
        ? 'This API key reaches no project.'
        : // A slug or id is short: a longer value is cut rather than echoed whole.
          `This API key cannot reach project "${a.wanted.length > 100 ? `${a.wanted.slice(0, 100)}…` : a.wanted}".`,
    toDetails: (a) => (a.projects ? { projects: a.projects } : undefined),
  }),
  'auth.account_key_required': define({
    status: 403,
    summary: 'an account-wide write needs a live key that reaches every project, acting on live',
    message: () =>
      'This changes every project of the account: use a live key that reaches every project, without Service-Environment: sandbox.',
  }),
  'environment.forbidden': define({
    status: 403,
    summary: 'a sandbox key asked for live data',
    message: () => 'A sandbox key cannot act on live data.',
  }),
  'plan.upgrade_required': define({
    status: 403,
    summary: 'the feature needs a higher plan',
    details: v.object({ feature: v.string(), plan: v.string(), requiredPlan: v.string() }),
    message: (d) => `${d.feature} requires the ${d.requiredPlan} plan or higher; this account is on ${d.plan}.`,
  }),
  not_found: define({
    status: 404,
    summary: 'no such record in this project and environment',
    message: (a: { what?: string; route?: string } | void) =>
      a?.route ? `No route for ${a.route}.` : `${a?.what ?? 'Resource'} not found.`,
  }),
  method_not_allowed: define({
    status: 405,
    summary: 'the path exists with other methods; details.allowed lists them',
    details: v.object({ allowed: v.array(v.string()) }),
    message: (d) => `Method not allowed. Allowed: ${d.allowed.join(', ')}.`,
    headers: (d) => ({ Allow: d.allowed.join(', ') }),
  }),
  conflict: define({
    status: 409,
    summary: 'other requests kept changing the same record at the same moment; retry',
    message: (a: { what: string }) => `${a.what} is being changed by other requests at the same moment; retry.`,
  }),
  'validation.failed': define({
    status: 422,
    summary: `the input breaks its schema; details.fields lists each bad field (the first ${MAX_FIELD_ISSUES})`,
    details: v.object({ fields }),
    message: (a: { fields: v.InferInput<typeof fields>; message?: string }) =>
      a.message ??
      `Invalid request: ${shownIssues(a.fields)
        .map((i) => `${i.field}: ${i.message}`)
        .join('; ')}${a.fields.length > MAX_FIELD_ISSUES ? `; and ${a.fields.length - MAX_FIELD_ISSUES} more` : ''}`,
    toDetails: (a) => ({ fields: shownIssues(a.fields) }),
  }),
  'service.unavailable': define({
    status: 503,
    summary:
      'a service the API depends on throttled or failed; nothing was changed unless the request is retried with the same result; retry after Retry-After seconds',
    details: v.object({ retryAfter: count }),
    message: (d) => `The service is briefly unavailable; nothing was lost. Retry in ${d.retryAfter} s.`,
    headers: (d) => ({ 'Retry-After': String(d.retryAfter) }),
  }),
  internal: define({
    status: 500,
    summary: 'unexpected error (logged)',
    message: () => 'An unexpected error occurred. It has been logged.',
  }),

  // Plans and quotas.
  'plan.ticket_limit': define({
    status: 403,
    summary:
      "ticket creation is paused: the Free allowance, or the paid plans' overage ceiling (3x), is reached this month",
    details: v.object({ current: count, allowance: count, reason: v.picklist(['free_allowance', 'ceiling']) }),
    message: (a: { current: number; allowance: number; ceiling: number; reason: 'free_allowance' | 'ceiling' }) =>
      a.reason === 'free_allowance'
        ? `Ticket creation is paused: the Free plan allowance of ${a.allowance} tickets this month is used up.`
        : `Ticket creation is paused: the overage ceiling of ${a.ceiling} tickets (3x the allowance) is reached this month.`,
    toDetails: ({ current, allowance, reason }) => ({ current, allowance, reason }),
  }),
  'plan.email_limit': define({
    status: 403,
    summary: 'the monthly email allowance is used up',
    details: quota,
    message: (d) => quotaMessage(d, quotaName.emails),
  }),
  'plan.log_event_limit': define({
    status: 403,
    summary: 'the monthly log event allowance is used up',
    details: quota,
    message: (d) => quotaMessage(d, quotaName.logEvents),
  }),
  'plan.storage_limit': define({
    status: 403,
    summary: 'the storage allowance would be exceeded',
    details: quota,
    message: (d) => `The storage allowance of ${d.allowance} bytes would be exceeded.`,
  }),

  // Areas.
  'ticket.unknown_member': define({
    status: 422,
    summary: 'assignedTo is not a member of the account',
    details: v.object({ fields }),
    message: (a: { memberId: string }) => `No member ${a.memberId} in this account.`,
    toDetails: () => ({
      fields: [{ field: 'assignedTo', in: 'body' as const, message: 'Not a member of this account' }],
    }),
  }),
  'ticket.upload_not_found': uploadRefused(
    'an uploadId names no unexpired upload of this project and environment',
    () => 'No such upload in this project and environment (uploads expire after 24 hours).',
  ),
  'ticket.upload_used': uploadRefused(
    'an upload is already attached to a message, or named twice in one',
    () => 'This upload is already attached to a message; an upload is attached once.',
  ),
  'ticket.upload_incomplete': define({
    status: 422,
    summary: 'nothing, or a size other than declared, was uploaded for an uploadId',
    details: v.object({ fields, uploadId: v.string(), declaredBytes: count, storedBytes: v.nullable(count) }),
    message: (a: UploadIncomplete) => uploadIncompleteText(a),
    toDetails: (a: UploadIncomplete) => ({
      ...uploadFields(a, uploadIncompleteText(a)),
      declaredBytes: a.declaredBytes,
      storedBytes: a.storedBytes ?? null,
    }),
  }),
  'ticket.attachments_too_large': define({
    status: 422,
    summary:
      'the inline attachments of one message are over 4,000,000 bytes (send larger files through POST /attachments)',
    details: v.object({ fields, maxBytes: count, bytes: count }),
    message: (a: { maxBytes: number; bytes: number }) =>
      `Inline attachments of one message may hold at most ${a.maxBytes} bytes; send larger files through POST /attachments.`,
    toDetails: (a: { maxBytes: number; bytes: number }) => ({
      fields: [
        {
          field: 'attachments',
          in: 'body' as const,
          message: `At most ${a.maxBytes} bytes of inline content in total`,
        },
      ],
      ...a,
    }),
  }),
  'email.not_cancelable': define({
    status: 422,
    summary: 'only a scheduled send can be canceled; details.status is its status',
    details: v.object({ status: v.string() }),
    message: (d) => `Only a scheduled send can be canceled; this one is ${d.status}.`,
  }),
  'idempotency.mismatch': define({
    status: 422,
    summary: 'the Idempotency-Key was used with a different request body',
    details: v.object({ key: v.string() }),
    message: (d) => `The Idempotency-Key "${d.key}" was used with a different request body.`,
  }),
  'idempotency.in_progress': define({
    status: 409,
    summary: 'a request with the same Idempotency-Key is still being processed; retry shortly',
    message: (a: { key: string }) =>
      `A request with the Idempotency-Key "${a.key}" is still being processed; retry shortly.`,
  }),
  'template.not_found': define({
    status: 422,
    summary: 'no template (details.templateKey) or layout (details.layout) with that key',
    details: v.union([v.object({ templateKey: v.string() }), v.object({ layout: v.string() })]),
    message: (d) =>
      'layout' in d ? `No layout with key ${d.layout} exists.` : `No template with key ${d.templateKey} exists.`,
  }),
  'template.invalid': define({
    status: 422,
    summary:
      'the file is not valid Handlebars, or nests blocks deeper than the limit; details give the line and column',
    details: v.object({ line: count, column: count, reason: v.string() }),
    message: (a: { what: string; line: number; column: number; reason: string; nestingLimit?: number }) =>
      a.nestingLimit !== undefined
        ? `${a.what} nests blocks or sub-expressions deeper than the limit of ${a.nestingLimit} levels (line ${a.line}, column ${a.column}).`
        : `${a.what} is not valid Handlebars (line ${a.line}, column ${a.column}): ${a.reason}.`,
    toDetails: ({ line, column, reason }) => ({ line, column, reason }),
  }),
  'template.render_failed': define({
    status: 422,
    summary: 'a part of the send (subject, template, layout or partial) could not be rendered; details name it',
    details: v.object({ in: templatePart, key: v.string() }),
    message: (a: { in: TemplatePart; key: string; endless?: boolean; tooLarge?: boolean }) =>
      `${partName(a.in, a.key)} could not be rendered${
        a.endless
          ? ': its partials include each other without end'
          : a.tooLarge
            ? ': with these variables its partials and loops render more than an email can hold'
            : ''
      }.`,
    toDetails: (a) => ({ in: a.in, key: a.key }),
  }),
  'template.unknown_helper': define({
    status: 422,
    summary: 'a part of the send calls a helper that does not exist; details name the helper, the part and the line',
    details: v.object({ helper: v.string(), in: templatePart, key: v.string(), line: count }),
    message: (d) =>
      `${partName(d.in, d.key)} calls the helper ${d.helper} on line ${d.line}, which does not exist; see the README for the helpers available.`,
  }),
  'template.too_large': define({
    status: 422,
    summary: 'the file does not compress small enough to be stored',
    message: () => 'The file does not compress small enough to be stored; split it into partials.',
  }),
  'article.category_not_found': unknownReference('categoryId', 'category'),
  'article.slug_taken': slugTaken('article'),
  'category.slug_taken': slugTaken('category'),
  'category.not_empty': define({
    status: 422,
    summary: 'the category still holds articles',
    details: v.object({ articleCount: count }),
    message: () => 'The category still holds articles: move or recategorize them first.',
  }),
  'ticket_field.key_taken': define({
    status: 422,
    summary: 'another ticket field of this project has this key (a deleted one keeps it until its values are removed)',
    details: v.object({ field: v.string(), key: v.string() }),
    message: (a: { key: string }) => `A ticket field with the key "${a.key}" exists (or is still being deleted).`,
    toDetails: ({ key }: { key: string }) => ({ field: 'key', key }),
  }),
  'ticket_field.limit': define({
    status: 422,
    summary: 'the project has as many ticket fields as it may',
    details: v.object({ limit: count }),
    message: (a: { limit: number }) =>
      `A project may have at most ${a.limit} ticket fields (deleted ones count until their values are removed).`,
  }),
  'ticket_field.type_in_use': define({
    status: 422,
    summary: "a field's type cannot change while tickets hold its values",
    details: v.object({ field: v.string(), valueCount: count }),
    message: (a: { valueCount: number }) =>
      `The type cannot change while ${a.valueCount} ticket${a.valueCount === 1 ? ' holds a value' : 's hold values'} of this field.`,
    toDetails: ({ valueCount }: { valueCount: number }) => ({ field: 'type', valueCount }),
  }),
  'ticket.split_not_customer': define({
    status: 422,
    summary: "only a customer's message starts a split",
    message: () => "A split starts at a customer's message: a staff reply or a note cannot open a ticket.",
  }),
  'ticket.split_everything': define({
    status: 422,
    summary: 'the split would leave the ticket without messages',
    message: () => 'The split would take every message of the ticket: at least one must stay.',
  }),
  'ticket.split_too_large': define({
    status: 422,
    summary: 'the split would move more messages and files than one transaction holds',
    details: v.object({ limit: count }),
    message: (a: { limit: number }) => `A split moves at most ${a.limit} messages and files together.`,
  }),
  'ticket.split_merged_message': define({
    status: 422,
    summary: 'the message came from a ticket merged into this one; unmerge it to split there',
    details: v.object({ ticketId: v.string() }),
    message: (a: { ticketId: string }) =>
      `The message belongs to ticket ${a.ticketId}, merged into this one: unmerge it and split that ticket.`,
  }),
  'log_alert.limit': define({
    status: 422,
    summary: 'the project has as many log alert rules as it may',
    details: v.object({ limit: count }),
    message: (a: { limit: number }) => `A project may have at most ${a.limit} log alert rules.`,
  }),
  'log_alert.unknown_member': define({
    status: 422,
    summary: 'a member id in actions.email.memberIds is not a member of the account',
    details: v.object({ field: v.string(), memberIds: v.array(v.string()) }),
    message: () => 'Every member id must be a member of the account (GET /members).',
    toDetails: ({ memberIds }: { memberIds: string[] }) => ({ field: 'actions.email.memberIds', memberIds }),
  }),
  'sla.limit': define({
    status: 422,
    summary: 'the project has as many business calendars or SLA policies as it may',
    details: v.object({ what: v.string(), limit: count }),
    message: (a: { what: string; limit: number }) => `A project may have at most ${a.limit} ${a.what}.`,
  }),
  'sla.unknown_calendar': define({
    status: 422,
    summary: 'no business calendar of this project and environment has the id given as calendarId',
    details: v.object({ field: v.string(), calendarId: v.string() }),
    message: () => 'No business calendar of this project has this id (GET /business-calendars).',
    toDetails: ({ calendarId }: { calendarId: string }) => ({ field: 'calendarId', calendarId }),
  }),
  'sla.calendar_in_use': define({
    status: 422,
    summary: 'SLA policies (details.policyIds) use the calendar: point them elsewhere first',
    details: v.object({ policyIds: v.array(v.string()) }),
    message: () => 'SLA policies use this calendar: give them another calendar, or none, first.',
  }),
  'ticket.merged': define({
    status: 409,
    summary: 'the ticket was merged into another (details.mergedInto) and is read-only; write to that one, or unmerge',
    details: v.object({ mergedInto: v.string() }),
    message: (a: { mergedInto: string }) =>
      `The ticket was merged into ticket ${a.mergedInto} and is read-only: write to that ticket, or unmerge it first.`,
  }),
  'ticket.merge_into_self': define({
    status: 422,
    summary: 'a ticket cannot be merged into itself',
    details: fieldOnly,
    message: () => 'A ticket cannot be merged into itself.',
    toDetails: () => ({ field: 'into' }),
  }),
  'ticket.merge_loop': define({
    status: 422,
    summary: 'the target is (through its merges) merged into this ticket: the merge would make a loop',
    details: v.object({ field: v.string(), target: v.string() }),
    message: () => 'The target was merged into this ticket (directly or through others): the merge would make a loop.',
    toDetails: ({ target }: { target: string }) => ({ field: 'into', target }),
  }),
  'ticket.merge_other_project': define({
    status: 422,
    summary: 'the target ticket is in another project: tickets merge within one project',
    details: v.object({ field: v.string(), projectId: v.string() }),
    message: () => 'The target ticket is in another project: tickets merge only within one project.',
    toDetails: ({ projectId }: { projectId: string }) => ({ field: 'into', projectId }),
  }),
  'ticket.merge_too_many': define({
    status: 422,
    summary: 'the target would show more merged tickets than allowed',
    details: v.object({ field: v.string(), limit: count }),
    message: (a: { limit: number }) => `A ticket shows the threads of at most ${a.limit} merged tickets.`,
    toDetails: ({ limit }: { limit: number }) => ({ field: 'into', limit }),
  }),
  'ticket.not_merged': define({
    status: 422,
    summary: 'the ticket is not merged into another: nothing to unmerge',
    message: () => 'The ticket is not merged into another: there is nothing to unmerge.',
  }),
  'ticket.merge_final': define({
    status: 422,
    summary: 'the merge is older than the undo period and is final',
    details: v.object({ mergedAt: v.string(), days: count }),
    message: (a: { days: number }) => `A merge can be undone for ${a.days} days; this one is final.`,
  }),
  'portal.handle_taken': define({
    status: 422,
    summary: 'another project has this portal handle (handles are unique across the service)',
    details: v.object({ field: v.string(), handle: v.string() }),
    message: (a: { handle: string }) => `The portal handle "${a.handle}" is taken.`,
    toDetails: ({ handle }: { handle: string }) => ({ field: 'portal.handle', handle }),
  }),
  'customer.email_immutable': define({
    status: 422,
    summary: "a customer's email cannot be changed",
    details: fieldOnly,
    message: () => 'The email of a customer cannot be changed.',
    toDetails: () => ({ field: 'email' }),
  }),
  'log_issue.merge_into_self': define({
    status: 422,
    summary: 'a log issue cannot be merged into itself',
    message: () => 'A log issue cannot be merged into itself.',
  }),
  'log_issue.already_merged': define({
    status: 422,
    summary:
      'the issue (details.id, the source or the target) is already merged into details.mergedInto; merge live issues only',
    details: v.object({ id: v.string(), mergedInto: v.string() }),
    message: (d) => `Log issue ${d.id} is already merged into ${d.mergedInto}; merge live issues only.`,
  }),
  'customer.email_taken': customerTaken('email'),
  'customer.external_id_taken': customerTaken('externalId'),
  'feedback.ticket_not_found': unknownReference('ticketId', 'ticket'),
  'feedback.conversation_closed': define({
    status: 422,
    summary: 'the conversation is closed',
    message: () => 'The conversation is closed: reopen it before replying.',
  }),
  'webhook.disabled': define({
    status: 409,
    summary: 'the endpoint is disabled; enable it (PATCH enabled: true) before recovering or retrying its deliveries',
    message: () => 'The webhook endpoint is disabled. Enable it before recovering its deliveries.',
  }),
  'webhook.url_not_allowed': define({
    status: 422,
    summary: 'the URL is not an allowed webhook target (not https, or a private address)',
    details: v.object({ url: v.string() }),
    message: (a: { url: string; refused: string }) => a.refused,
    toDetails: ({ url }) => ({ url }),
  }),
} as const;

export type ProblemCode = keyof typeof PROBLEMS;
/** What `problem(code, args)` takes for a code: the message's argument. */
export type ProblemArgs<C extends ProblemCode> = Parameters<(typeof PROBLEMS)[C]['message']>[0];
