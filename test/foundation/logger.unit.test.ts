import { logger } from '@helpdesk/core/kernel/logger';
import { afterEach, describe, expect, it, vi } from 'vitest';

const captured = () => {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const lines = (spy: typeof out) =>
    spy.mock.calls.map(([chunk]) => JSON.parse(String(chunk)) as Record<string, unknown>);
  return { stdout: () => lines(out), stderr: () => lines(err) };
};

describe('logger', () => {
  const level = process.env.LOG_LEVEL;
  afterEach(() => {
    vi.restoreAllMocks();
    if (level === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = level;
  });

  it('writes one JSON line per entry: level, message, timestamp, service and the fields; warnings and errors on stderr', () => {
    process.env.LOG_LEVEL = 'INFO';
    const io = captured();
    logger.info('Inbound mail dropped', { reason: 'auto-reply' });
    logger.error('Unhandled error', { routeKey: 'GET /x', error: new TypeError('boom') });
    const [info] = io.stdout();
    expect(info).toMatchObject({
      level: 'INFO',
      message: 'Inbound mail dropped',
      service: expect.any(String),
      reason: 'auto-reply',
    });
    expect(new Date(info!.timestamp as string).toISOString()).toBe(info!.timestamp);
    const [error] = io.stderr();
    expect(error).toMatchObject({
      level: 'ERROR',
      message: 'Unhandled error',
      routeKey: 'GET /x',
      error: { name: 'TypeError', message: 'boom' },
    });
    expect((error!.error as { stack: string }).stack).toContain('TypeError: boom');
  });

  it('never throws: fields it cannot write are named instead', () => {
    process.env.LOG_LEVEL = 'INFO';
    const io = captured();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => logger.warn('Odd fields', { cycle, big: 10n })).not.toThrow();
    expect(io.stderr()).toEqual([
      expect.objectContaining({ level: 'WARN', message: 'Odd fields', unloggableFields: ['cycle', 'big'] }),
    ]);
  });

  it('drops entries below LOG_LEVEL, read at each call; SILENT drops all', () => {
    const io = captured();
    process.env.LOG_LEVEL = 'WARN';
    logger.info('hidden');
    logger.warn('shown');
    process.env.LOG_LEVEL = 'silent';
    logger.error('hidden too');
    process.env.LOG_LEVEL = 'nonsense';
    logger.info('an unknown level means INFO');
    expect(io.stdout().map((e) => e.message)).toEqual(['an unknown level means INFO']);
    expect(io.stderr().map((e) => e.message)).toEqual(['shown']);
  });
});
