import { type DynamoRequest, describe, isRateLimitWrite, readUnits, writeUnits } from './capacity.js';
import { progress, type Stack } from './stack.js';

interface Request {
  method: string;
  path: string;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
}

export interface RouteResult {
  route: string;
  group: string;
  status: number;
  warm: DynamoRequest[];
  cold: DynamoRequest[];
  /** Median CPU time of a warm call in this process (client, local server and handler). */
  cpuMs: number;
}

const WARM_CALLS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

let seq = 0;
const unique = (tag: string) => `${tag}-${Date.now().toString(36)}-${++seq}@bench.example`;
const idOf = (res: { status: number; body: any }, what: string): string => {
  if (res.status !== 200 || typeof res.body?.id !== 'string')
    throw new Error(`Seeding ${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
};

/**
 * One call per route on seeded data in one project: the DynamoDB requests of a call on warm caches
 * (after one call that warms the handler), then of a call right after the key cache was cleared.
 * Routes that create or delete get a fresh target for each call.
 */
export async function measureRoutes(
  stack: Stack,
  project: string,
): Promise<{ results: RouteResult[]; skipped: string[] }> {
  // Imported once the environment points at the stand-ins: a route module reaches the database client.
  const { clearPrincipalCache } = await import('@helpdesk/core/identity/principal');
  const { allRoutes } = await import('@helpdesk/core/top/routes/table');
  const { routeKey } = await import('@helpdesk/core/kernel/api/route');
  const call = (r: Request) => stack.call(r.method, r.path, { body: r.body, query: r.query, project });

  progress('per-route: seeding one of each record');
  const newTicket = async () =>
    idOf(
      await call({
        method: 'POST',
        path: '/tickets',
        body: { subject: 'Cannot log in', body: 'It says my password is wrong.', customer: { email: unique('c') } },
      }),
      'ticket',
    );
  const ticketId = await newTicket();
  const returning = unique('returning');
  await call({
    method: 'POST',
    path: '/tickets',
    body: { subject: 'First', body: 'Hello', customer: { email: returning } },
  });
  const customerId = idOf(
    await call({ method: 'POST', path: '/customers', body: { email: unique('cust'), name: 'Bench Customer' } }),
    'customer',
  );
  const categoryId = idOf(
    await call({ method: 'POST', path: '/article-categories', body: { name: `Category ${++seq}` } }),
    'category',
  );
  const newArticle = async () =>
    idOf(
      await call({
        method: 'POST',
        path: '/articles',
        body: {
          title: `How to reset a password ${++seq}`,
          body: 'Open settings, then security.',
          status: 'published',
          categoryId,
        },
      }),
      'article',
    );
  const articleId = await newArticle();
  const newWebhook = async () =>
    idOf(await call({ method: 'POST', path: '/webhooks', body: { url: 'http://127.0.0.1:9/hook' } }), 'webhook');
  const webhookId = await newWebhook();
  const sendBody = () => ({ to: unique('to'), subject: 'Hello', body: 'Plain *body*' });
  const emailId = idOf(await call({ method: 'POST', path: '/emails/send', body: sendBody() }), 'email');
  const scheduledEmail = async () =>
    idOf(
      await call({
        method: 'POST',
        path: '/emails/send',
        body: { ...sendBody(), scheduledAt: new Date(Date.now() + 86_400_000).toISOString() },
      }),
      'scheduled email',
    );
  const logBody = { events: [{ level: 'error', message: 'Payment 1234 failed', scope: 'billing' }] };
  await call({ method: 'POST', path: '/logs', body: logBody });
  stack.startConsumers();
  await stack.startConsumers().drain(60_000);
  await stack.stopConsumers();
  const issueId = idOf(
    { status: 200, body: (await call({ method: 'GET', path: '/log-issues' })).body?.issues?.[0] },
    'log issue',
  );
  const conversationBody = () => ({ customer: { email: unique('fb') }, body: 'Great support', rating: 5 });
  const conversationId = idOf(
    await call({ method: 'POST', path: '/feedback/conversations', body: conversationBody() }),
    'feedback conversation',
  );
  const requestId = idOf(
    await call({ method: 'POST', path: '/feedback/requests', body: { customer: { email: unique('rq') } } }),
    'feedback request',
  );

  const fixed = (r: Request) => async () => r;
  const specs: Record<string, () => Promise<Request>> = {
    listProjects: fixed({ method: 'GET', path: '/projects' }),
    listMembers: fixed({ method: 'GET', path: '/members' }),
    listTickets: fixed({ method: 'GET', path: '/tickets' }),
    // A returning customer, the common case; a first-time customer is a variant below.
    createTicket: fixed({
      method: 'POST',
      path: '/tickets',
      body: { subject: 'Refund', body: 'Please refund order 42.', customer: { email: returning } },
    }),
    getTicket: fixed({ method: 'GET', path: `/tickets/${ticketId}` }),
    updateTicket: fixed({ method: 'PATCH', path: `/tickets/${ticketId}`, body: { priority: 'high' } }),
    deleteTicket: async () => ({ method: 'DELETE', path: `/tickets/${await newTicket()}` }),
    postTicketMessage: fixed({
      method: 'POST',
      path: `/tickets/${ticketId}/messages`,
      body: { body: 'Looking into it.', visibility: 'internal' },
    }),
    addTicketTag: async () => ({ method: 'POST', path: `/tickets/${ticketId}/tags`, body: { tag: `tag-${++seq}` } }),
    removeTicketTag: fixed({ method: 'DELETE', path: `/tickets/${ticketId}/tags`, query: { tag: 'tag-1' } }),
    listCustomers: fixed({ method: 'GET', path: '/customers' }),
    createCustomer: async () => ({ method: 'POST', path: '/customers', body: { email: unique('cust') } }),
    getCustomer: fixed({ method: 'GET', path: `/customers/${customerId}` }),
    updateCustomer: fixed({ method: 'PATCH', path: `/customers/${customerId}`, body: { name: 'Renamed' } }),
    deleteCustomer: async () => ({
      method: 'DELETE',
      path: `/customers/${idOf(await call({ method: 'POST', path: '/customers', body: { email: unique('del') } }), 'customer')}`,
    }),
    searchArticles: fixed({ method: 'GET', path: '/articles/search', query: { q: 'password' } }),
    listArticles: fixed({ method: 'GET', path: '/articles' }),
    createArticle: async () => ({
      method: 'POST',
      path: '/articles',
      body: { title: `Billing FAQ ${++seq}`, body: 'Invoices are sent monthly.' },
    }),
    getArticle: fixed({ method: 'GET', path: `/articles/${articleId}` }),
    updateArticle: fixed({
      method: 'PATCH',
      path: `/articles/${articleId}`,
      body: { excerpt: 'Reset it from settings.' },
    }),
    voteArticle: fixed({ method: 'POST', path: `/articles/${articleId}/votes`, body: { helpful: true } }),
    listArticleCategories: fixed({ method: 'GET', path: '/article-categories' }),
    createArticleCategory: async () => ({
      method: 'POST',
      path: '/article-categories',
      body: { name: `Category ${++seq}` },
    }),
    updateArticleCategory: fixed({
      method: 'PATCH',
      path: `/article-categories/${categoryId}`,
      body: { description: 'All about accounts' },
    }),
    deleteArticleCategory: async () => ({
      method: 'DELETE',
      path: `/article-categories/${idOf(await call({ method: 'POST', path: '/article-categories', body: { name: `Temp ${++seq}` } }), 'category')}`,
    }),
    sendEmail: async () => ({ method: 'POST', path: '/emails/send', body: sendBody() }),
    sendEmailBatch: async () => ({ method: 'POST', path: '/emails/batch', body: { emails: [sendBody(), sendBody()] } }),
    listEmails: fixed({ method: 'GET', path: '/emails' }),
    getEmail: fixed({ method: 'GET', path: `/emails/${emailId}` }),
    cancelEmail: async () => ({ method: 'DELETE', path: `/emails/${await scheduledEmail()}` }),
    previewEmail: fixed({
      method: 'POST',
      path: '/emails/preview',
      body: { subject: 'Hi there', body: 'Hello *there*' },
    }),
    listTemplates: fixed({ method: 'GET', path: '/email-templates' }),
    ingestLogs: fixed({ method: 'POST', path: '/logs', body: logBody }),
    listLogs: fixed({ method: 'GET', path: '/logs' }),
    listLogIssues: fixed({ method: 'GET', path: '/log-issues' }),
    getLogIssue: fixed({ method: 'GET', path: `/log-issues/${issueId}` }),
    updateLogIssue: fixed({ method: 'PATCH', path: `/log-issues/${issueId}`, body: { status: 'acknowledged' } }),
    listWebhooks: fixed({ method: 'GET', path: '/webhooks' }),
    createWebhook: async () => ({ method: 'POST', path: '/webhooks', body: { url: 'http://127.0.0.1:9/other' } }),
    updateWebhook: fixed({ method: 'PATCH', path: `/webhooks/${webhookId}`, body: { description: 'Bench' } }),
    deleteWebhook: async () => ({ method: 'DELETE', path: `/webhooks/${await newWebhook()}` }),
    listWebhookDeliveries: fixed({ method: 'GET', path: `/webhooks/${webhookId}/deliveries` }),
    rotateWebhookSecret: fixed({ method: 'POST', path: `/webhooks/${webhookId}/rotate-secret` }),
    listFeedbackConversations: fixed({ method: 'GET', path: '/feedback/conversations' }),
    createFeedbackConversation: async () => ({
      method: 'POST',
      path: '/feedback/conversations',
      body: conversationBody(),
    }),
    getFeedbackConversation: fixed({ method: 'GET', path: `/feedback/conversations/${conversationId}` }),
    updateFeedbackConversation: fixed({
      method: 'PATCH',
      path: `/feedback/conversations/${conversationId}`,
      body: { status: 'open' },
    }),
    replyToFeedbackConversation: fixed({
      method: 'POST',
      path: `/feedback/conversations/${conversationId}/messages`,
      body: { body: 'Thank you!' },
    }),
    listFeedbackRequests: fixed({ method: 'GET', path: '/feedback/requests' }),
    createFeedbackRequest: async () => ({
      method: 'POST',
      path: '/feedback/requests',
      body: { customer: { email: unique('rq') } },
    }),
    getFeedbackRequest: fixed({ method: 'GET', path: `/feedback/requests/${requestId}` }),
  };

  // Other shapes of a route whose cost differs: [route id, label, request].
  const variants: [string, string, () => Promise<Request>][] = [
    [
      'createTicket',
      'new customer',
      async () => ({
        method: 'POST',
        path: '/tickets',
        body: { subject: 'Refund', body: 'Please refund order 42.', customer: { email: unique('c') } },
      }),
    ],
    [
      'postTicketMessage',
      'public reply',
      fixed({ method: 'POST', path: `/tickets/${ticketId}/messages`, body: { body: 'We are on it.' } }),
    ],
  ];

  progress(`per-route: ${Object.keys(specs).length} routes and ${variants.length} variants, warm and cold key cache`);
  const results: RouteResult[] = [];
  const runs = allRoutes.flatMap((route) => [
    ...(specs[route.id] ? [{ route, label: '', spec: specs[route.id]! }] : []),
    ...variants.filter(([id]) => id === route.id).map(([, label, spec]) => ({ route, label: ` (${label})`, spec })),
  ]);
  for (const { route, label, spec } of runs) {
    await call(await spec()); // warms the group handler and the key cache
    const cpu: number[] = [];
    let warm: Awaited<ReturnType<typeof stack.recorder.record<Awaited<ReturnType<typeof call>>>>> | undefined;
    for (let i = 0; i < WARM_CALLS; i++) {
      const warmReq = await spec();
      const before = process.cpuUsage();
      const recorded = await stack.recorder.record(() => call(warmReq));
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
      warm ??= recorded;
    }
    const coldReq = await spec();
    clearPrincipalCache();
    const cold = await stack.recorder.record(() => call(coldReq));
    results.push({
      route: routeKey(route) + label,
      group: route.group,
      status: warm!.result.status,
      warm: warm!.requests,
      cold: cold.requests,
      cpuMs: median(cpu),
    });
  }
  // Drop what the calls queued (webhook events, emails, indexing): the consumers are measured elsewhere.
  await stack.purge('webhooks', 'emails', 'articleIndex', 'logs', 'sesEvents');
  const skipped = allRoutes.filter((r) => !specs[r.id]).map((r) => routeKey(r));
  return { results, skipped };
}

/** The request counts the targets are about: the route's own, and the rate-limit window write. */
export const split = (rs: DynamoRequest[]) => ({
  total: rs.length,
  rate: rs.filter(isRateLimitWrite).length,
  own: rs.filter((r) => !isRateLimitWrite(r)).length,
  rcu: readUnits(rs),
  wcu: writeUnits(rs),
  list: describe(rs.filter((r) => !isRateLimitWrite(r))),
});
