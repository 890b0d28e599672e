import * as v from 'valibot';
import { integer, isoDateTime, isPlainObject, lineText, patchBody, uuid } from '../../kernel/api/schemas.js';
import { alertFields } from '../../kernel/log-alert-terms.js';
import { eventScope } from './schemas.js';
import { ALERT_TRIGGERS, LOG_LEVELS, MAX_ALERT_RECIPIENTS, MAX_WINDOW_MINUTES } from './values.js';

const name = lineText(100);
const count = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000_000));
const windowMinutes = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_WINDOW_MINUTES));

/** What fires a rule (the trigger's `type` chooses which of `count`, `windowMinutes`, `factor` it takes). */
export const trigger = v.variant('type', [
  v.strictObject({ type: v.picklist(['new_issue', 'regression']) }),
  v.strictObject({ type: v.literal('threshold'), count, windowMinutes }),
  v.strictObject({
    type: v.literal('spike'),
    count,
    windowMinutes,
    /** The window's events are at least this many times the issue's rate over the 24 hours before it. */
    factor: v.pipe(v.number(), v.minValue(1), v.maxValue(1000)),
  }),
]);

const filterFields = v.strictObject({
  /** Issues of this level or higher. */
  level: v.optional(v.picklist(LOG_LEVELS)),
  /** Issues whose scope starts with this. */
  scopePrefix: v.optional(v.pipe(eventScope, v.minLength(1))),
  /** These issues only. */
  issueIds: v.optional(v.pipe(v.array(uuid), v.minLength(1), v.maxLength(100))),
});
/**
 * A strict object that refuses an array (valibot's object takes `[]` as `{}`) and reports each field's issue
 * at its path (`actions.email.addresses.0`); `document` is what the OpenAPI document shows for it.
 */
const plainObject = <S extends v.GenericSchema>(schema: S, document: Record<string, unknown>) =>
  v.pipe(v.unknown(), v.check(isPlainObject, 'Expected an object'), v.metadata(document), schema);

const filters = plainObject(filterFields, {
  type: 'object',
  properties: {
    level: { enum: LOG_LEVELS },
    scopePrefix: { type: 'string', minLength: 1, maxLength: 200 },
    issueIds: { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: 100 },
  },
  additionalProperties: false,
});

const emailAddress = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email());
const recipients = <T extends v.GenericSchema>(item: T) => v.pipe(v.array(item), v.maxLength(MAX_ALERT_RECIPIENTS / 2));
const emailFields = v.strictObject({
  memberIds: v.optional(recipients(uuid)),
  addresses: v.optional(recipients(emailAddress)),
});
const actionFields = v.strictObject({
  /** Mail to these members of the account and these addresses. */
  email: v.optional(plainObject(emailFields, { type: 'object' })),
  /** Send the `log_issue.alert` webhook event. */
  webhook: v.optional(v.boolean()),
});
// No action at all is allowed: the alert is still recorded (GET /log-alerts, the console).
const actions = plainObject(actionFields, {
  type: 'object',
  properties: {
    email: {
      type: 'object',
      properties: {
        memberIds: { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: MAX_ALERT_RECIPIENTS / 2 },
        addresses: { type: 'array', items: { type: 'string', format: 'email' }, maxItems: MAX_ALERT_RECIPIENTS / 2 },
      },
      additionalProperties: false,
    },
    webhook: { type: 'boolean' },
  },
  additionalProperties: false,
});
const cooldownMinutes = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_080));

export const alertRuleCreate = v.strictObject({
  name,
  trigger,
  filters: v.optional(filters),
  actions: v.optional(actions),
  /** Minutes after an alert before the rule alerts again for the same issue (default 30). */
  cooldownMinutes: v.optional(cooldownMinutes),
  enabled: v.optional(v.boolean()),
});
export const alertRuleUpdate = patchBody(
  {
    name: v.optional(name),
    trigger: v.optional(trigger),
    filters: v.optional(filters),
    actions: v.optional(actions),
    cooldownMinutes: v.optional(cooldownMinutes),
    enabled: v.optional(v.boolean()),
  },
  'Give at least one of name, trigger, filters, actions, cooldownMinutes, enabled',
);
export type AlertRuleCreate = v.InferOutput<typeof alertRuleCreate>;
export type AlertRuleUpdate = v.InferOutput<typeof alertRuleUpdate>;
export type AlertTriggerSpec = v.InferOutput<typeof trigger>;
export type AlertFilters = v.InferOutput<typeof filterFields>;
export type AlertActions = v.InferOutput<typeof actionFields>;

export const alertRule = v.object({
  id: uuid,
  name: v.string(),
  trigger: v.object({
    type: v.picklist(ALERT_TRIGGERS),
    count: v.optional(integer),
    windowMinutes: v.optional(integer),
    factor: v.optional(v.number()),
  }),
  filters: filterFields,
  actions: v.object({
    email: v.object({ memberIds: v.array(uuid), addresses: v.array(v.string()) }),
    webhook: v.boolean(),
  }),
  cooldownMinutes: integer,
  enabled: v.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

/** An alert as fired: which rule, which issue, and what it saw (the webhook event's `alert`, with the issue). */
export const logAlert = v.object({
  ...alertFields,
  issue: v.object({ id: uuid, title: v.string(), level: v.picklist(LOG_LEVELS), scope: v.nullable(v.string()) }),
});

export const snoozeBody = v.strictObject({
  until: v.pipe(
    isoDateTime,
    v.check((s) => Date.parse(s) > Date.now(), 'Must be in the future'),
    v.check((s) => Date.parse(s) <= Date.now() + 365 * 86_400_000, 'Must be within a year (365 days)'),
  ),
});

/** An issue's events per hour (the last 24) and per day (the last 30), with the releases first seen then. */
export const issueActivity = v.object({
  hourly: v.array(v.object({ hour: isoDateTime, count: integer })),
  daily: v.array(v.object({ day: v.string(), count: integer })),
  releases: v.array(v.object({ release: v.string(), firstSeenAt: isoDateTime })),
});
