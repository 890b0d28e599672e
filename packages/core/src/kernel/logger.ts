import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Structured JSON logs, one line per entry (CloudWatch Logs in AWS, the terminal locally):
 * `{ level, message, timestamp, service, ...fields }`, with Error values written as
 * `{ name, message, stack, cause? }`. The service logs a handful of warnings and failures and needs nothing
 * else a logging library offers, so this replaces Powertools' logger (20 KB at every Lambda's init).
 *
 * The level and service name come from the environment at each call (`LOG_LEVEL`: DEBUG, INFO, WARN,
 * ERROR, CRITICAL or SILENT, default INFO; `SERVICE_NAME`, which the stack sets): a logger must work
 * when the configuration does not parse, since it reports that failure.
 */
const LEVELS = { DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 } as const;
type Level = keyof typeof LEVELS;

const threshold = () => LEVELS[(process.env.LOG_LEVEL?.toUpperCase() ?? 'INFO') as Level] ?? LEVELS.INFO;

/** An Error as a plain object, with what it wraps (ElectroDB wraps the SDK's error, which names the cause). */
const serializable = (_key: string, value: unknown) =>
  value instanceof Error
    ? {
        name: value.name,
        message: value.message,
        stack: value.stack,
        ...(value.cause === undefined ? {} : { cause: value.cause }),
      }
    : value;

/**
 * The fields of the unit of work a line belongs to (a request: its id, route, tenant and status; a
 * queue message: its id and tenant), set once where the work starts and written on every line of it.
 * AsyncLocalStorage, not a module variable: the local stack runs many requests in one process.
 */
const context = new AsyncLocalStorage<Record<string, unknown>>();

/** Runs `work` with its own log context (the pipeline per request, a consumer per message). */
export const withLogContext = <T>(fields: Record<string, unknown>, work: () => T): T =>
  context.run({ ...fields }, work);

/** Adds fields to the current unit of work's context, as it learns them (the route, then the tenant). */
export function addLogContext(fields: Record<string, unknown>) {
  const current = context.getStore();
  if (current) Object.assign(current, fields);
}

/** The current context's fields (the request id for a response header). */
export const logContext = (): Readonly<Record<string, unknown>> => context.getStore() ?? {};

function write(level: Level, message: string, fields: Record<string, unknown> = {}) {
  if (LEVELS[level] < threshold()) return;
  const entry = {
    level,
    message,
    timestamp: new Date().toISOString(),
    service: process.env.SERVICE_NAME ?? 'helpdesk',
    ...context.getStore(),
    ...fields,
  };
  let line: string;
  try {
    line = `${JSON.stringify(entry, serializable)}\n`;
  } catch {
    // A field that cannot be written (a cycle, a BigInt) must not turn a log call into a failure.
    line = `${JSON.stringify({ level, message, timestamp: entry.timestamp, service: entry.service, unloggableFields: Object.keys(fields) })}\n`;
  }
  if (LEVELS[level] >= LEVELS.WARN) process.stderr.write(line);
  else process.stdout.write(line);
}

export const logger = {
  info: (message: string, fields?: Record<string, unknown>) => write('INFO', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('WARN', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('ERROR', message, fields),
};
