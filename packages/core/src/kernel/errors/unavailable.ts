/**
 * A dependency (DynamoDB, SQS, S3, SES, Secrets Manager, Bedrock) that throttled, failed on its side
 * or could not be reached, after the SDK's own retries. The API answers 503 `service.unavailable`
 * with Retry-After; a consumer lets the queue redeliver.
 */
export class Unavailable extends Error {
  constructor(
    readonly dependency: string,
    options?: { cause?: unknown },
  ) {
    super(`${dependency} is unavailable`, options);
    this.name = 'Unavailable';
  }
}

/** The names AWS services give throttling (DynamoDB, SQS, S3, SES v1 and v2, STS, Secrets Manager). */
const THROTTLED = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'SlowDown',
  'RequestLimitExceeded',
  'TransactionInProgressException',
]);
/** Failures to reach a service at all: refused, reset, timed out, name not resolved for now. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);
const TIMEOUTS = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'AbortError']);

interface AwsLike {
  name?: string;
  code?: string | number;
  $fault?: 'client' | 'server';
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

/** True when an error, or one it wraps (ElectroDB wraps the SDK's), says a dependency is unavailable. */
export function isUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as AwsLike;
    if (e instanceof Unavailable) return true;
    if (e.name && (THROTTLED.has(e.name) || TIMEOUTS.has(e.name))) return true;
    if (typeof e.code === 'string' && UNREACHABLE.has(e.code)) return true;
    if (e.$fault === 'server' || (e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
    current = e.cause;
  }
  return false;
}
