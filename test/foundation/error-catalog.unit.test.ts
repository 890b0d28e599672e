import { routeProblems } from '@helpdesk/core/kernel/api/problems';
import { PROBLEMS, type ProblemCode } from '@helpdesk/core/kernel/errors/catalog';
import { problem } from '@helpdesk/core/kernel/errors/problem';
import { buildOpenApiDocument } from '@helpdesk/core/top/openapi/document';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import { describe, expect, it } from 'vitest';
import { checkContract } from '../support/contract.js';

const doc = buildOpenApiDocument(allRoutes, [{ url: 'http://127.0.0.1:3000', description: 'test' }]) as any;
const url = (path: string) => new URL(`http://127.0.0.1:3000/api/v1${path}`);
const errorBody = (code: string, message: string, details?: unknown) => ({
  error: { code, message, ...(details ? { details } : {}) },
});

describe('error catalog', () => {
  it('documents plan.ticket_limit on POST /tickets: the 403 enum, its description and its details', () => {
    const forbidden = doc.paths['/tickets'].post.responses['403'];
    const codes = forbidden.content['application/json'].schema.allOf[1].properties.error.properties.code.enum;
    expect(codes).toEqual(['auth.forbidden', 'project.forbidden', 'environment.forbidden', 'plan.ticket_limit']);
    expect(forbidden.description).toContain('`plan.ticket_limit`');
    const component = doc.components.schemas['Problem.plan.ticket_limit'];
    expect(component.required).toEqual(['code', 'details']);
    expect(component.properties.details).toMatchObject({
      properties: {
        current: { type: 'number' },
        allowance: { type: 'number' },
        reason: { enum: ['free_allowance', 'ceiling'] },
      },
      required: ['current', 'allowance', 'reason'],
    });
  });

  it('adds the pipeline codes from the route: key, project, ids, input, plan gate, write, body', () => {
    const route = (id: string) => allRoutes.find((r) => r.id === id)!;
    expect(routeProblems(route('getTicket')).sort()).toEqual(
      [
        'auth.forbidden',
        'auth.unauthorized',
        'environment.forbidden',
        'internal',
        'not_found',
        'project.forbidden',
        'project.required',
        'rate_limit.exceeded',
        'service.unavailable',
        'validation.failed',
      ].sort(),
    );
    expect(routeProblems(route('sendEmailBatch'))).toEqual(
      expect.arrayContaining(['plan.upgrade_required', 'conflict']),
    );
    // A JSON operation without a body refuses one sent (422); a page has none to refuse.
    expect(routeProblems(route('getOpenApi'))).toEqual(['service.unavailable', 'internal', 'validation.failed']);
    expect(routeProblems(route('getReferencePage'))).toEqual(['service.unavailable', 'internal']);
  });

  it('lists every code in some operation (method_not_allowed answers only paths that have no operation)', () => {
    const listed = new Set(allRoutes.flatMap(routeProblems));
    const unlisted = (Object.keys(PROBLEMS) as ProblemCode[]).filter((code) => !listed.has(code));
    expect(unlisted).toEqual(['method_not_allowed']);
  });

  it('builds the message and details from the catalog, typed by code', () => {
    const e = problem('plan.ticket_limit', { current: 100, allowance: 100, ceiling: 100, reason: 'free_allowance' });
    expect(e.status).toBe(403);
    expect(e.toBody()).toEqual(
      errorBody(
        'plan.ticket_limit',
        'Ticket creation is paused: the Free plan allowance of 100 tickets this month is used up.',
        {
          current: 100,
          allowance: 100,
          reason: 'free_allowance',
        },
      ),
    );
    expect(problem('rate_limit.exceeded', { limit: 5, retryAfter: 12 }).headers).toEqual({ 'Retry-After': '12' });
    // A wrong details shape does not compile (checked by `npm run typecheck`, which covers the tests).
    // @ts-expect-error reason is missing
    expect(() => problem('plan.ticket_limit', { current: 1, allowance: 1, ceiling: 3 })).not.toThrow();
  });

  it('names the first 20 field issues of a bad request, with the count of the rest, and cuts long field paths', () => {
    const issues = Array.from({ length: 20_000 }, (_, i) => ({
      field: `events.${i}`,
      in: 'body' as const,
      message: 'Expected an object',
    }));
    const e = problem('validation.failed', { fields: issues });
    const body = e.toBody() as unknown as { error: { message: string; details: { fields: unknown[] } } };
    expect(body.error.details.fields).toEqual(issues.slice(0, 20));
    expect(body.error.message).toMatch(
      /^Invalid request: events\.0: Expected an object; .*events\.19: Expected an object; and 19980 more$/,
    );
    expect(JSON.stringify(body).length).toBeLessThan(3_000);
    const long = problem('validation.failed', {
      fields: [{ field: 'k'.repeat(100_000), in: 'body', message: 'Unknown field' }],
    });
    expect((long.details as { fields: { field: string }[] }).fields[0]!.field).toBe(`${'k'.repeat(200)}…`);
    expect(long.message.length).toBeLessThan(300);
  });
});

describe('contract check', () => {
  it('fails a call answered with a code its operation does not document', () => {
    const body = errorBody('email.not_cancelable', 'Only a scheduled send can be canceled; this one is sent.', {
      status: 'sent',
    });
    expect(() => checkContract('POST', url('/tickets'), 422, 'application/json', body)).toThrow(
      /POST \/tickets answered 422 email.not_cancelable, which its OpenAPI operation createTicket does not document/,
    );
    // The same answer from the operation that lists it passes.
    checkContract('DELETE', url('/emails/6a1f4c2e-1111-4aaa-8bbb-000000000001'), 422, 'application/json', body);
  });

  it('fails a documented code whose details are off its schema', () => {
    const off = errorBody('plan.ticket_limit', 'Ticket creation is paused.', { current: 1, allowance: 1 });
    expect(() => checkContract('POST', url('/tickets'), 403, 'application/json', off)).toThrow(
      /does not match the OpenAPI schema of createTicket/,
    );
    const right = errorBody('plan.ticket_limit', 'Ticket creation is paused.', {
      current: 1,
      allowance: 1,
      reason: 'ceiling',
    });
    checkContract('POST', url('/tickets'), 403, 'application/json', right);
  });
});
