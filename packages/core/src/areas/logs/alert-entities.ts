import { Entity } from 'electrodb';
import { explicitTimestamps } from '../../kernel/db/attributes.js';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';
import { ALERT_TRIGGERS } from './values.js';

const { createdAt, updatedAt } = explicitTimestamps;

/** An alert rule. A project's rules share one partition: the alert check reads them in one Query. */
export const LogAlertRule = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'logAlertRule', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          ruleId: { type: 'string', required: true, readOnly: true },
          name: { type: 'string', required: true },
          trigger: { type: 'any', required: true },
          filters: { type: 'any', required: true },
          actions: { type: 'any', required: true },
          cooldownMinutes: { type: 'number', required: true },
          enabled: { type: 'boolean', required: true },
          createdAt,
          updatedAt,
        },
        indexes: {
          byId: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: ['ruleId'] },
          },
        },
      },
      entityConfig(),
    ),
);

/** An alert that fired, newest first in the project's partition; kept 90 days. */
export const LogAlert = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'logAlert', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          alertId: { type: 'string', required: true, readOnly: true },
          firedAt: { type: 'string', required: true, readOnly: true },
          ruleId: { type: 'string', required: true },
          ruleName: { type: 'string', required: true },
          trigger: { type: ALERT_TRIGGERS, required: true },
          issueId: { type: 'string', required: true },
          /** The issue as it was: id, title, level, scope. */
          issue: { type: 'any', required: true },
          count: { type: 'number' },
          windowMinutes: { type: 'number' },
          baseline: { type: 'number' },
          expiresAt: { type: 'number', required: true },
        },
        indexes: {
          byTime: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: ['firedAt', 'alertId'] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * A rule's last alert for one issue: the alert's write is conditional on the cool-down having passed,
 * so of two checks that see one crossing, one alerts.
 */
export const LogAlertState = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'logAlertState', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          ruleId: { type: 'string', required: true, readOnly: true },
          issueId: { type: 'string', required: true, readOnly: true },
          lastFiredAt: { type: 'string', required: true },
          expiresAt: { type: 'number', required: true },
        },
        indexes: {
          byRuleIssue: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'ruleId', 'issueId'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * An issue's events in one minute, hour or day (`unit` m, h, d; `bucket` the UTC time cut to it), added
 * to in the transaction that counts them. ADDs commute, so batches processed in any order end equal.
 */
export const LogIssueCount = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'logIssueCount', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          issueId: { type: 'string', required: true, readOnly: true },
          unit: { type: ['m', 'h', 'd'] as const, required: true, readOnly: true },
          bucket: { type: 'string', required: true, readOnly: true },
          count: { type: 'number' },
          expiresAt: { type: 'number' },
        },
        indexes: {
          byIssue: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'issueId'] },
            sk: { field: 'sk', composite: ['unit', 'bucket'] },
          },
        },
      },
      entityConfig(),
    ),
);
