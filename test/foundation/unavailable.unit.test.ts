import { isUnavailable, Unavailable } from '@helpdesk/core/kernel/errors/unavailable';
import { describe, expect, it } from 'vitest';

const aws = (name: string, status: number, fault: 'client' | 'server' = status >= 500 ? 'server' : 'client') =>
  Object.assign(new Error(name), { name, $fault: fault, $metadata: { httpStatusCode: status } });

describe('which failures are a dependency being unavailable (503) rather than a bug (500) or the request (4xx)', () => {
  it('counts throttling of every service, its 5xx, timeouts and unreachable hosts, wrapped or not', () => {
    for (const err of [
      aws('ProvisionedThroughputExceededException', 400),
      aws('ThrottlingException', 400),
      aws('TooManyRequestsException', 429),
      aws('SlowDown', 503),
      aws('RequestThrottled', 400),
      aws('InternalServerError', 500),
      aws('ServiceUnavailable', 503),
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('timed out'), { name: 'TimeoutError' }),
      new Unavailable('DynamoDB'),
      Object.assign(new Error('ElectroDB'), { name: 'ElectroError', cause: aws('ThrottlingException', 400) }),
    ]) {
      expect(isUnavailable(err), err.name).toBe(true);
    }
  });

  it('does not count refusals of the request itself, or plain bugs', () => {
    for (const err of [
      aws('ConditionalCheckFailedException', 400),
      aws('ValidationException', 400),
      aws('AccessDeniedException', 403),
      aws('ResourceNotFoundException', 400),
      new TypeError('x is undefined'),
      Object.assign(new Error('ElectroDB'), { name: 'ElectroError', cause: aws('ValidationException', 400) }),
      undefined,
    ]) {
      expect(isUnavailable(err), String(err)).toBe(false);
    }
  });
});
