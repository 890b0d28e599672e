/**
 * The operations the load phase repeats, by name, so a worker thread can build them from plain data
 * (functions do not cross threads). Each returns one request for client `c`'s `i`-th iteration.
 */
export interface ApiRequest {
  method: string;
  path: string;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
}

export const SEARCH_WORDS = [
  'password',
  'invoice',
  'refund',
  'shipping',
  'account',
  'billing',
  'export',
  'webhook',
  'login',
  'security',
  'mobile',
  'team',
];

/** 100 log events in 4 fingerprints. */
export const logBatch = (i: number) => ({
  events: Array.from({ length: 100 }, (_, e) => {
    const kind = e % 4;
    const n = i * 100 + e;
    return [
      { level: 'error', scope: 'billing', message: `Payment ${n} for customer${n}@shop.example failed` },
      { level: 'warn', scope: 'api', message: `Slow request ${n} took ${n % 900} ms` },
      {
        level: 'error',
        scope: 'worker',
        message: 'Job crashed',
        stack: `Error: Job crashed\n    at run (/app/src/jobs/job${n % 3}.ts:${n % 99}:5)\n    at main (/app/src/main.ts:10:3)`,
      },
      { level: 'info', scope: 'auth', message: `User ${n} signed in from 10.0.${n % 255}.${n % 200}` },
    ][kind];
  }),
});

export const API_OPS = {
  getTicket: (p: { ticketId: string }) => (): ApiRequest => ({ method: 'GET', path: `/tickets/${p.ticketId}` }),
  createTicket:
    () =>
    (c: number, i: number): ApiRequest => ({
      method: 'POST',
      path: '/tickets',
      body: { subject: `Load ${c}-${i}`, body: 'Hello', customer: { email: `load${c}@bench.example` } },
    }),
  ingestLogs:
    () =>
    (c: number, i: number): ApiRequest => ({ method: 'POST', path: '/logs', body: logBatch(c * 100_000 + i) }),
  searchArticles:
    () =>
    (c: number, i: number): ApiRequest => ({
      method: 'GET',
      path: '/articles/search',
      query: { q: SEARCH_WORDS[(c + i) % SEARCH_WORDS.length]! },
    }),
  /** Searches with real user queries (`queries`: a JSON array), ten results each. */
  searchQueries: (p: { queries: string }) => {
    const queries = JSON.parse(p.queries) as string[];
    return (c: number, i: number): ApiRequest => ({
      method: 'GET',
      path: '/articles/search',
      query: { q: queries[(c * 7919 + i) % queries.length]!, limit: 10 },
    });
  },
  /** Help center pages by path (`paths`: a JSON array, relative to the server's root), in turn. */
  portalPages: (p: { paths: string }) => {
    const paths = JSON.parse(p.paths) as string[];
    return (c: number, i: number): ApiRequest => ({ method: 'GET', path: paths[(c * 31 + i) % paths.length]! });
  },
};

export type ApiOpName = keyof typeof API_OPS;

/** What a load worker runs: API calls through the local API Gateway, or raw GetItems on DynamoDB Local. */
export type LoadSpec =
  | { kind: 'api'; op: ApiOpName; params: Record<string, string>; apiUrl: string; key: string; project: string }
  | { kind: 'getItem'; endpoint: string; tableName: string; key: Record<string, string> };
