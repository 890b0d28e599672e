import { EVENT_CATALOG, EVENT_NAMES } from '@helpdesk/core/areas/webhooks/catalog';
import { deliveryIssues } from '@helpdesk/core/top/openapi/webhooks';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { startReceiver } from './receiver.js';

/**
 * Issue 29.5: the event catalog, published (GET /webhook-event-types, the OpenAPI document's
 * `webhooks`), and raised by the writes it describes. Every delivery a receiver gets in the test suite
 * is validated against its type's schema (receiver.ts).
 */
const app = await startTestApp();

describe('the event catalog', () => {
  it('publishes at least 25 types, each with a description, a JSON Schema and an example that conforms', async () => {
    const res = await app.call('GET', '/webhook-event-types');
    expect(res.status).toBe(200);
    const types = res.body.eventTypes as { type: string; description: string; schema: object; example: object }[];
    expect(types.length).toBeGreaterThanOrEqual(25);
    expect(types.map((t) => t.type)).toEqual(EVENT_NAMES);
    for (const t of types) {
      expect(t.description.length, t.type).toBeGreaterThan(10);
      expect(t.schema, t.type).toHaveProperty('type', 'object');
      expect(
        deliveryIssues({ event: t.type, type: t.type, timestamp: '2026-01-01T00:00:00.000Z', data: t.example }),
      ).toEqual([]);
    }
    const doc = await app.call('GET', '/openapi.json');
    expect(Object.keys(doc.body.webhooks)).toEqual(EVENT_NAMES);
    const created = doc.body.webhooks['ticket.created'].post;
    expect(created.requestBody.content['application/json'].schema.properties.data).toBeDefined();
    expect(created.parameters.map((p: { name: string }) => p.name)).toContain('webhook-signature');
    // A body that breaks its schema is reported.
    expect(
      deliveryIssues({ event: 'ticket.created', type: 'ticket.created', timestamp: 'x', data: {} }).length,
    ).toBeGreaterThan(0);
    expect(Object.keys(EVENT_CATALOG)).toHaveLength(EVENT_NAMES.length);
  });

  it('raises ticket, message, customer and log issue events from the writes they describe', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await app.call('POST', '/webhooks', {
      key: t.liveKey,
      body: {
        url: receiver.url,
        events: ['ticket.*', 'message.sent', 'note.added', 'customer.deleted', 'log_issue.*'],
      },
    });
    expect(hook.status).toBe(200);
    const agent = await t.member({ role: 'agent' });
    const ticket = (
      await app.call('POST', '/tickets', {
        key: t.liveKey,
        body: { subject: 'Events', body: 'Hi', customer: { email: 'events@example.com' }, priority: 'low' },
      })
    ).body;
    await app.call('PATCH', `/tickets/${ticket.id}`, {
      key: t.liveKey,
      body: { priority: 'high', assignedTo: agent.memberId, status: 'resolved' },
    });
    await app.call('POST', `/tickets/${ticket.id}/messages`, { key: t.liveKey, body: { body: 'Staff reply' } });
    await app.call('POST', `/tickets/${ticket.id}/messages`, {
      key: t.liveKey,
      body: { body: 'A note', visibility: 'internal' },
    });
    await app.drain();
    const events = () => receiver.requests.map((r) => r.json.event);
    expect(events()).toEqual(
      expect.arrayContaining([
        'ticket.created',
        'ticket.updated',
        'ticket.assigned',
        'ticket.status_changed',
        'ticket.resolved',
        'message.sent',
        'note.added',
      ]),
    );
    const updated = receiver.requests.find((r) => r.json.event === 'ticket.updated')!.json.data;
    expect(updated.changes).toEqual({
      status: { from: 'new', to: 'resolved' },
      priority: { from: 'low', to: 'high' },
      assignedTo: { from: null, to: agent.memberId },
    });
    expect(receiver.requests.filter((r) => r.json.event === 'ticket.status_changed').map((r) => r.json.data)).toEqual([
      expect.objectContaining({ from: 'new', to: 'resolved' }),
    ]);
    expect(receiver.requests.filter((r) => r.json.event === 'note.added')).toHaveLength(1);
    expect(receiver.requests.filter((r) => r.json.event === 'message.sent')).toHaveLength(1);

    await app.call('DELETE', `/tickets/${ticket.id}`, { key: t.liveKey });
    const customers = await app.call('GET', '/customers', { key: t.liveKey });
    const customerId = customers.body.customers[0].id;
    await app.call('DELETE', `/customers/${customerId}`, { key: t.liveKey });

    await app.call('POST', '/logs', {
      key: t.liveKey,
      body: { events: [{ level: 'error', message: 'Disk full on node 7' }] },
    });
    await app.drain();
    const issues = await app.call('GET', '/log-issues', { key: t.liveKey });
    const issueId = issues.body.issues[0].id;
    await app.call('PATCH', `/log-issues/${issueId}`, { key: t.liveKey, body: { status: 'resolved' } });
    await app.call('POST', '/logs', {
      key: t.liveKey,
      body: { events: [{ level: 'error', message: 'Disk full on node 7' }] },
    });
    await app.drain();

    expect(receiver.requests.find((r) => r.json.event === 'ticket.deleted')!.json.data).toEqual({
      ticket: { id: ticket.id, number: ticket.number },
    });
    expect(receiver.requests.find((r) => r.json.event === 'customer.deleted')!.json.data).toEqual({
      customer: { id: customerId, email: 'events@example.com' },
    });
    expect(events().filter((e) => e.startsWith('log_issue.'))).toEqual([
      'log_issue.created',
      'log_issue.resolved',
      'log_issue.regressed',
    ]);
  });
});
