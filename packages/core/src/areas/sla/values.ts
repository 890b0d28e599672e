/** The SLA vocabulary, shared by the route schemas, the entities and the clock (no database imports here). */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** What a policy promises: the first staff reply, each next one after the customer wrote, and the resolution. */
export const SLA_TARGETS = ['firstReply', 'nextReply', 'resolution'] as const;
export type SlaTarget = (typeof SLA_TARGETS)[number];

export const TARGET_STATUSES = ['active', 'paused', 'achieved', 'breached'] as const;
export type TargetStatus = (typeof TARGET_STATUSES)[number];

/** At risk: the last share of a target's time (the warning fires when it begins). */
export const DEFAULT_AT_RISK = 0.2;
export const MAX_CALENDARS = 20;
export const MAX_POLICIES = 50;
/** A target of at most a year: the clock looks three years ahead for business time. */
export const MAX_TARGET_MINUTES = 525_600;
/** Values in one condition's list (tags, a metadata key's values), and metadata keys in one policy. */
export const MAX_CONDITION_VALUES = 50;
export const MAX_CONDITION_KEYS = 10;
