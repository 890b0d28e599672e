import * as v from 'valibot';

/**
 * What makes a log alert rule fire: an issue seen for the first time, a resolved one happening again, a
 * spike (N events in W minutes and k times its usual rate), or a plain threshold (N events in W minutes).
 * With the fields of a fired alert, here (not in the logs area or the event catalog) because both the
 * rules' routes and the `log_issue.alert` event name them, and a route must not load the catalog.
 */
export const ALERT_TRIGGERS = ['new_issue', 'regression', 'spike', 'threshold'] as const;

/** A log alert as fired (the `log_issue.alert` event's `alert`; GET /log-alerts shows the same fields). */
export const alertFields = {
  id: v.string(),
  ruleId: v.string(),
  ruleName: v.string(),
  trigger: v.picklist(ALERT_TRIGGERS),
  /** Events in the window that crossed (threshold and spike), else null. */
  count: v.nullable(v.number()),
  windowMinutes: v.nullable(v.number()),
  /** Events the usual rate gives such a window (spike), else null. */
  baseline: v.nullable(v.number()),
  firedAt: v.string(),
};
