import { randomUUID } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import { withinCap } from '../../kernel/cap.js';
import { commit, put, update } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { keptCopies } from '../../kernel/kept.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { TenantKey, TenantRef } from '../../kernel/tenant.js';
import type { Calendar } from './business-time.js';
import type { ClockRules } from './clock.js';
import { BusinessCalendar, SlaPolicy, slaService } from './entities.js';
import { slaReapplyQueue } from './queue.js';
import type { CalendarCreate, CalendarUpdate, Conditions, PolicyCreate, PolicyUpdate } from './schemas.js';
import { DEFAULT_AT_RISK, MAX_CALENDARS, MAX_POLICIES, type SlaTarget } from './values.js';

type CalendarItem = EntityItem<typeof BusinessCalendar>;
type PolicyItem = EntityItem<typeof SlaPolicy>;

const tenantOf = (ctx: TenantKey) => ({ projectId: ctx.projectId, env: ctx.env });

export interface SlaSetup {
  calendars: CalendarItem[];
  /** In position order (then creation). */
  policies: PolicyItem[];
}

/**
 * The project's calendars and policies (one Query of their shared partition), kept SETUP_TTL_MS per
 * instance like ticket field definitions: a ticket write that re-chooses its policy pays no read, and a
 * change reaches other instances within that time. A write here forgets them on its own instance.
 */
export const SETUP_TTL_MS = 10_000;
const keyOf = (ctx: TenantKey) => `${ctx.projectId}#${ctx.env}`;
const setups = keptCopies(SETUP_TTL_MS, async (key): Promise<SlaSetup> => {
  const [projectId = '', env] = key.split('#');
  const { data } = await slaService.collections
    .slaSetup({ projectId, env: env as TenantKey['env'] })
    .go({ pages: 'all' });
  const policies = [...data.policy].sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt));
  return { calendars: data.calendar, policies };
});

export const slaSetup = (ctx: TenantKey) => setups.get(keyOf(ctx));
const forget = (ctx: TenantKey) => setups.forget(keyOf(ctx));

/**
 * What a policy may match on. `tags` and `customerMetadata` are read by the caller only when some policy
 * of the setup has such a condition (`needs`): most projects pay no read for them.
 */
export interface TicketFacts {
  priority: string;
  category: string;
  source?: string;
  tags?: readonly string[];
  customerMetadata?: Readonly<Record<string, string>>;
}

/** Whether any policy matches on tags or on customer metadata. */
export const needs = (setup: SlaSetup) => ({
  tags: setup.policies.some((p) => (p.conditions as Conditions).tags),
  customerMetadata: setup.policies.some((p) => (p.conditions as Conditions).customerMetadata),
});

const metadataValue = (m: TicketFacts['customerMetadata'], key: string) =>
  m && Object.hasOwn(m, key) ? m[key] : undefined;

/** The rules of the first policy whose conditions match the ticket (undefined: none does). */
export function rulesFor(setup: SlaSetup, ticket: TicketFacts): ClockRules | undefined {
  const has = (list: readonly string[] | undefined, value: string | undefined) =>
    !list || (value !== undefined && list.includes(value));
  const tagKeys = new Set((ticket.tags ?? []).map((t) => t.toLowerCase()));
  const hasTag = (tags: readonly string[] | undefined) => !tags || tags.some((t) => tagKeys.has(t.toLowerCase()));
  const hasMetadata = (wanted: Conditions['customerMetadata']) =>
    !wanted ||
    Object.entries(wanted).every(([key, values]) => has(values, metadataValue(ticket.customerMetadata, key)));
  const matches = (c: Conditions) =>
    has(c.priority, ticket.priority) &&
    has(c.category, ticket.category) &&
    has(c.source, ticket.source) &&
    hasTag(c.tags) &&
    hasMetadata(c.customerMetadata);
  const p = setup.policies.find((policy) => matches(policy.conditions as Conditions));
  if (!p) return undefined;
  const cal = p.calendarId ? setup.calendars.find((c) => c.calendarId === p.calendarId) : undefined;
  return {
    policyId: p.policyId,
    targets: p.targets as Partial<Record<SlaTarget, number>>,
    ...(cal ? { calendar: { id: cal.calendarId, ...calendarOf(cal) } } : {}),
    pauseOnPending: p.pauseOnPending,
    stopOnResolved: p.stopOnResolved,
    atRisk: p.atRisk,
  };
}

const calendarOf = (c: CalendarItem): Calendar => ({
  timeZone: c.timeZone,
  hours: c.hours as Calendar['hours'],
  holidays: c.holidays as Calendar['holidays'],
});

const toCalendar = (c: CalendarItem) => ({
  id: c.calendarId,
  name: c.name,
  timeZone: c.timeZone,
  hours: c.hours as Calendar['hours'],
  holidays: (c.holidays as Calendar['holidays']).map((h) => ({ date: h.date, recurring: h.recurring ?? false })),
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

const toPolicy = (p: PolicyItem) => ({
  id: p.policyId,
  name: p.name,
  position: p.position,
  conditions: p.conditions as Conditions,
  targets: p.targets as Partial<Record<SlaTarget, number>>,
  calendarId: p.calendarId ?? null,
  pauseOnPending: p.pauseOnPending,
  stopOnResolved: p.stopOnResolved,
  atRisk: p.atRisk,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

/** The partition read strongly: a create checks its rank among what is there now (kernel/cap.ts). */
const consistent = async (ctx: TenantKey) =>
  (await slaService.collections.slaSetup(tenantOf(ctx)).go({ pages: 'all', consistent: true })).data;

/** Read now: the API's own answers never come from the kept copy. */
const fresh = (ctx: TenantKey) => setups.fresh(keyOf(ctx));

export const listCalendars = async (ctx: TenantKey) => ({
  calendars: (await fresh(ctx)).calendars.map(toCalendar),
});

async function calendarItem(ctx: TenantKey, calendarId: string) {
  const { data } = await BusinessCalendar.get({ ...tenantOf(ctx), calendarId }).go();
  if (!data) throw errors.notFound('Business calendar');
  return data;
}

export const getCalendar = async (ctx: TenantKey, calendarId: string) =>
  toCalendar(await calendarItem(ctx, calendarId));

export async function createCalendar(ctx: TenantKey, input: CalendarCreate) {
  if ((await fresh(ctx)).calendars.length >= MAX_CALENDARS)
    throw problem('sla.limit', { what: 'business calendars', limit: MAX_CALENDARS });
  const { data } = await BusinessCalendar.create({
    ...tenantOf(ctx),
    calendarId: randomUUID(),
    name: input.name,
    timeZone: input.timeZone,
    hours: input.hours,
    holidays: input.holidays ?? [],
  }).go();
  forget(ctx);
  if (!withinCap((await consistent(ctx)).calendar, MAX_CALENDARS, (c) => c.calendarId, data.calendarId)) {
    await BusinessCalendar.delete({ ...tenantOf(ctx), calendarId: data.calendarId }).go();
    throw problem('sla.limit', { what: 'business calendars', limit: MAX_CALENDARS });
  }
  return toCalendar(data);
}

export async function updateCalendar(ctx: TenantKey, calendarId: string, input: CalendarUpdate) {
  await calendarItem(ctx, calendarId);
  const { data } = await BusinessCalendar.patch({ ...tenantOf(ctx), calendarId })
    .set({ ...input, updatedAt: new Date().toISOString() })
    .go({ response: 'all_new' });
  forget(ctx);
  return toCalendar(data as CalendarItem);
}

/** A calendar a policy uses cannot go (422 `sla.calendar_in_use`): its tickets' clocks run on it. */
export async function deleteCalendar(ctx: TenantKey, calendarId: string) {
  await calendarItem(ctx, calendarId);
  const users = (await fresh(ctx)).policies.filter((p) => p.calendarId === calendarId);
  if (users.length) throw problem('sla.calendar_in_use', { policyIds: users.map((p) => p.policyId) });
  await BusinessCalendar.delete({ ...tenantOf(ctx), calendarId }).go();
  forget(ctx);
  return { deleted: true, id: calendarId };
}

export const listPolicies = async (ctx: TenantKey) => ({ policies: (await fresh(ctx)).policies.map(toPolicy) });

async function policyItem(ctx: TenantKey, policyId: string) {
  const { data } = await SlaPolicy.get({ ...tenantOf(ctx), policyId }).go();
  if (!data) throw errors.notFound('SLA policy');
  return data;
}

export const getPolicy = async (ctx: TenantKey, policyId: string) => toPolicy(await policyItem(ctx, policyId));

async function checkCalendar(ctx: TenantKey, calendarId: string | null | undefined) {
  if (!calendarId) return;
  const { data } = await BusinessCalendar.get({ ...tenantOf(ctx), calendarId }).go();
  if (!data) throw problem('sla.unknown_calendar', { calendarId });
}

/** The re-choice of every open ticket's policy, committed with the policy write that asks for it. */
const reapplyItem = (ctx: TenantRef, apply: boolean | undefined) =>
  apply ? outboxItem(slaReapplyQueue, { projectId: ctx.projectId, env: ctx.env, accountId: ctx.accountId }) : undefined;

export async function createPolicy(ctx: TenantRef, input: PolicyCreate) {
  const setup = await fresh(ctx);
  if (setup.policies.length >= MAX_POLICIES) throw problem('sla.limit', { what: 'SLA policies', limit: MAX_POLICIES });
  await checkCalendar(ctx, input.calendarId);
  const item = {
    ...tenantOf(ctx),
    policyId: randomUUID(),
    name: input.name,
    position: input.position ?? (setup.policies.at(-1)?.position ?? -1) + 1,
    conditions: input.conditions ?? {},
    targets: input.targets,
    ...(input.calendarId ? { calendarId: input.calendarId } : {}),
    pauseOnPending: input.pauseOnPending ?? true,
    stopOnResolved: input.stopOnResolved ?? true,
    atRisk: input.atRisk ?? DEFAULT_AT_RISK,
  };
  await commit({
    items: () => ({ policy: put(SlaPolicy.create(item)), reapply: reapplyItem(ctx, input.applyToOpen) }),
    exhausted: () => errors.conflict('The SLA policy'),
  });
  forget(ctx);
  if (!withinCap((await consistent(ctx)).policy, MAX_POLICIES, (p) => p.policyId, item.policyId)) {
    await SlaPolicy.delete({ ...tenantOf(ctx), policyId: item.policyId }).go();
    throw problem('sla.limit', { what: 'SLA policies', limit: MAX_POLICIES });
  }
  return getPolicy(ctx, item.policyId);
}

export async function updatePolicy(ctx: TenantRef, policyId: string, input: PolicyUpdate) {
  await policyItem(ctx, policyId);
  await checkCalendar(ctx, input.calendarId);
  const { calendarId, applyToOpen, ...rest } = input;
  const set = SlaPolicy.patch({ ...tenantOf(ctx), policyId }).set({
    ...rest,
    ...(calendarId ? { calendarId } : {}),
    updatedAt: new Date().toISOString(),
  });
  await commit({
    items: () => ({
      policy: update((calendarId === null ? set.remove(['calendarId']) : set).where((a, op) => op.exists(a.policyId))),
      reapply: reapplyItem(ctx, applyToOpen),
    }),
    refused: () => {
      throw errors.notFound('SLA policy');
    },
    exhausted: () => errors.conflict('The SLA policy'),
  });
  forget(ctx);
  return getPolicy(ctx, policyId);
}

/** Tickets whose clocks run under a deleted policy keep them (the clock holds a copy of its rules). */
export async function deletePolicy(ctx: TenantKey, policyId: string) {
  await policyItem(ctx, policyId);
  await SlaPolicy.delete({ ...tenantOf(ctx), policyId }).go();
  forget(ctx);
  return { deleted: true, id: policyId };
}
