import * as v from 'valibot';
import {
  isoDate,
  isoDateTime,
  isPlainObject,
  lineText,
  MAP_VALUE_MAX,
  patchBody,
  uuid,
} from '../../kernel/api/schemas.js';
import { CATEGORIES, PRIORITIES, TAG_MAX, TICKET_SOURCES } from '../../kernel/ticket-terms.js';
import { isTimeZone } from './business-time.js';
import {
  MAX_CONDITION_KEYS,
  MAX_CONDITION_VALUES,
  MAX_TARGET_MINUTES,
  SLA_TARGETS,
  TARGET_STATUSES,
  WEEKDAYS,
} from './values.js';

const tag = lineText(TAG_MAX);
const metadataKey = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const metadataValue = v.pipe(v.string(), v.minLength(1), v.maxLength(MAP_VALUE_MAX));
const name = lineText(100);
const clockTime = v.pipe(
  v.string(),
  v.regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'A time HH:MM from 00:00 to 24:00'),
);
const interval = v.pipe(
  v.strictObject({
    day: v.picklist(WEEKDAYS),
    start: v.pipe(clockTime, v.metadata({ examples: ['09:00'] })),
    end: v.pipe(clockTime, v.metadata({ examples: ['17:00'] })),
  }),
  v.check((i) => i.start < i.end, 'start is before end'),
);
const noOverlap = <T extends { day: string; start: string; end: string }>(list: T[]) =>
  list.every((a, i) => list.every((b, j) => i === j || a.day !== b.day || a.end <= b.start || b.end <= a.start));
const hours = v.pipe(v.array(interval), v.maxLength(70), v.check(noOverlap, "A day's intervals must not overlap"));
const holiday = v.strictObject({
  date: v.pipe(isoDate, v.metadata({ examples: ['2026-12-25'] })),
  /** Every year on this month and day. */
  recurring: v.optional(v.boolean()),
});
const timeZone = v.pipe(
  v.string(),
  v.maxLength(64),
  v.check(isTimeZone, 'An IANA time zone such as Europe/Berlin'),
  v.metadata({ examples: ['Europe/Berlin'] }),
);
const holidays = v.pipe(v.array(holiday), v.maxLength(400));

export const calendarCreate = v.strictObject({ name, timeZone, hours, holidays: v.optional(holidays) });
export const calendarUpdate = patchBody(
  { name: v.optional(name), timeZone: v.optional(timeZone), hours: v.optional(hours), holidays: v.optional(holidays) },
  'Give at least one of name, timeZone, hours, holidays',
);
export const calendar = v.object({
  id: uuid,
  name: v.string(),
  timeZone: v.string(),
  hours: v.array(v.object({ day: v.picklist(WEEKDAYS), start: v.string(), end: v.string() })),
  holidays: v.array(v.object({ date: v.string(), recurring: v.boolean() })),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

const minutes = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_TARGET_MINUTES));
const targets = v.pipe(
  v.strictObject({ firstReply: v.optional(minutes), nextReply: v.optional(minutes), resolution: v.optional(minutes) }),
  v.check((t) => Object.keys(t).length > 0, 'Give at least one target'),
  v.metadata({ minProperties: 1 }),
);
/** A ticket's fields a policy matches on; an absent condition matches every ticket. */
const conditionFields = v.strictObject({
  priority: v.optional(v.pipe(v.array(v.picklist(PRIORITIES)), v.minLength(1))),
  category: v.optional(v.pipe(v.array(v.picklist(CATEGORIES)), v.minLength(1))),
  /** Where the ticket was opened (ticket.created's source). */
  source: v.optional(v.pipe(v.array(v.picklist(TICKET_SOURCES)), v.minLength(1))),
  /** The ticket has at least one of these tags (compared case-insensitively). */
  tags: v.optional(v.pipe(v.array(tag), v.minLength(1), v.maxLength(MAX_CONDITION_VALUES))),
  /** The customer's metadata holds, under every key given, one of its values. */
  customerMetadata: v.optional(
    v.pipe(
      v.record(metadataKey, v.pipe(v.array(metadataValue), v.minLength(1), v.maxLength(MAX_CONDITION_VALUES))),
      v.check((m) => Object.keys(m).length >= 1 && Object.keys(m).length <= MAX_CONDITION_KEYS),
    ),
  ),
});
export type Conditions = v.InferOutput<typeof conditionFields>;
// A strict object alone takes an array (as an empty object): the conditions must be an object.
const listOf = (values: readonly string[]) => ({ type: 'array', items: { enum: values }, minItems: 1 });
const textList = (maxLength: number) => ({
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength },
  minItems: 1,
  maxItems: MAX_CONDITION_VALUES,
});
const conditions = v.pipe(
  v.custom<Conditions>(
    (c) =>
      isPlainObject(c) &&
      v.is(conditionFields, c) &&
      (c.customerMetadata === undefined || isPlainObject(c.customerMetadata)),
    `Conditions: any of priority, category, source (non-empty lists of their values), tags (up to ${MAX_CONDITION_VALUES}) and customerMetadata (up to ${MAX_CONDITION_KEYS} keys, each a list of values)`,
  ),
  v.metadata({
    type: 'object',
    properties: {
      priority: listOf(PRIORITIES),
      category: listOf(CATEGORIES),
      source: listOf(TICKET_SOURCES),
      tags: textList(TAG_MAX),
      customerMetadata: {
        type: 'object',
        additionalProperties: textList(MAP_VALUE_MAX),
        minProperties: 1,
        maxProperties: MAX_CONDITION_KEYS,
        propertyNames: { minLength: 1, maxLength: 100 },
      },
    },
    additionalProperties: false,
  }),
);
const settings = {
  position: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000))),
  conditions: v.optional(conditions),
  calendarId: v.optional(v.nullable(uuid)),
  pauseOnPending: v.optional(v.boolean()),
  stopOnResolved: v.optional(v.boolean()),
  atRisk: v.optional(v.pipe(v.number(), v.minValue(0.01), v.maxValue(0.9))),
  /** Choose the policy of every open ticket again now (in the background), not only of new and re-prioritized ones. */
  applyToOpen: v.optional(v.boolean()),
};
export const policyCreate = v.strictObject({ name, targets, ...settings });
export const policyUpdate = patchBody(
  { name: v.optional(name), targets: v.optional(targets), ...settings },
  'Give at least one setting',
);
export const policy = v.object({
  id: uuid,
  name: v.string(),
  position: v.number(),
  conditions: conditionFields,
  targets: v.object({
    firstReply: v.optional(v.number()),
    nextReply: v.optional(v.number()),
    resolution: v.optional(v.number()),
  }),
  calendarId: v.nullable(uuid),
  pauseOnPending: v.boolean(),
  stopOnResolved: v.boolean(),
  atRisk: v.number(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

const target = v.object({
  minutes: v.number(),
  status: v.picklist(TARGET_STATUSES),
  dueAt: v.nullable(isoDateTime),
  atRisk: v.boolean(),
  breachedAt: v.nullable(isoDateTime),
  achievedAt: v.nullable(isoDateTime),
  /** Minutes used so far: business minutes with a calendar, else calendar minutes. */
  usedMinutes: v.number(),
});
/** `ticket.sla`: null when no policy applies. */
export const ticketSla = v.nullable(
  v.object({
    policyId: v.string(),
    /** business: the minutes are the calendar's hours; calendar: every minute counts. */
    time: v.picklist(['business', 'calendar']),
    targets: v.object(
      Object.fromEntries(SLA_TARGETS.map((t) => [t, v.nullable(target)])) as Record<
        (typeof SLA_TARGETS)[number],
        v.NullableSchema<typeof target, undefined>
      >,
    ),
  }),
);

const minutesTaken = v.nullable(v.object({ calendarMinutes: v.number(), businessMinutes: v.nullable(v.number()) }));
/** `ticket.metrics`: business minutes are the SLA calendar's (null when the ticket's policy has none). */
export const ticketMetrics = v.object({
  /** From creation to the first public staff reply. */
  firstReply: minutesTaken,
  /** From creation to resolved (or closed); a reopen clears it until the next. */
  resolution: minutesTaken,
  replies: v.number(),
  reopens: v.number(),
});

const percentiles = v.object({
  count: v.number(),
  medianMinutes: v.nullable(v.number()),
  p90Minutes: v.nullable(v.number()),
});
export const metricsReport = v.object({
  from: v.string(),
  to: v.string(),
  groupBy: v.picklist(['day', 'priority', 'assignee']),
  groups: v.array(
    v.object({
      /** The day (YYYY-MM-DD), the priority, or the assignee's member id (`unassigned`). */
      key: v.string(),
      firstReply: percentiles,
      resolution: percentiles,
      sla: v.object({ met: v.number(), missed: v.number(), achievementRate: v.nullable(v.number()) }),
      breaches: v.number(),
    }),
  ),
});

export type CalendarCreate = v.InferOutput<typeof calendarCreate>;
export type CalendarUpdate = v.InferOutput<typeof calendarUpdate>;
export type PolicyCreate = v.InferOutput<typeof policyCreate>;
export type PolicyUpdate = v.InferOutput<typeof policyUpdate>;
