import type { Endpoints } from './emulators.js';
import { startHttpServer } from './http-server.js';
import { startOutboxRelay } from './outbox-relay.js';
import type { Resources } from './provision.js';
import { startQueuePollers } from './queue-pollers.js';
import { startSesSendEvents } from './ses-send-events.js';
import { startSmtpServer } from './smtp.js';

/** How long the relay waits before its second look at the stream (see settled()). */
const STREAM_SETTLE_MS = 50;

export interface App {
  url: string;
  apiUrl: string;
  port: number;
  /** The SMTP stand-in for SES receiving: mail for INBOUND_DOMAIN sent here reaches the inbound consumer. */
  smtp: { host: string; port: number };
  /** Waits until every outbox item is relayed and every queue is empty with its consumer idle. */
  drain(timeoutMs?: number): Promise<void>;
  /** Relays what the table's stream holds now (without waiting for the consumers). */
  relayed(): Promise<void>;
  /** Fires the schedules due now (the local stand-in for EventBridge Scheduler). */
  fireSchedules(now?: Date): Promise<number>;
  /** Deletes uploads older than 24 hours at `now` (the local stand-in for the bucket's lifecycle rule). */
  sweepUploads(now?: Date): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The service on the stand-ins: the local API Gateway, the SQS event source mappings and the
 * scheduler timer. process.env must already point at the stand-ins (see handlerEnvironment).
 */
export async function startApp(options: {
  endpoints: Endpoints;
  resources: Resources;
  port: number;
  host?: string;
  scheduleEveryMs?: number;
  sweepUploadsEveryMs?: number;
  /** false: leave messages on the queues and outbox items in the table (measurements that must see only the API's own requests). */
  consumers?: boolean;
  /** Play SES's Send events from what the SES stand-in accepted, every this many ms (npm start: 1 s). */
  sesSendEventsEveryMs?: number;
  /** The HTTP functions' time limit; the deployed one (29 s) unless a test needs more of a loaded emulator. */
  functionTimeoutMs?: number;
}): Promise<App> {
  const relay =
    options.consumers === false
      ? undefined
      : await startOutboxRelay(options.endpoints.dynamodb, options.resources.tableName);
  const http = await startHttpServer(options.port, options.host, () => void relay?.pump(), options.functionTimeoutMs);
  const pollers = startQueuePollers(
    options.endpoints.sqs,
    options.resources.queueUrls,
    options.consumers === false ? [] : undefined,
  );
  const smtp = await startSmtpServer();
  const sesSendEvents = options.sesSendEventsEveryMs
    ? startSesSendEvents(options.endpoints.ses, options.sesSendEventsEveryMs)
    : undefined;
  const { fireDueSchedules } = await import('@helpdesk/core/kernel/ports/scheduler');
  const fireSchedules = (now?: Date) => fireDueSchedules(now);
  const { sweepExpiredUploads } = await import('@helpdesk/core/areas/tickets/uploads');
  const sweepUploads = (now?: Date) => sweepExpiredUploads(now);
  const timer = options.scheduleEveryMs
    ? setInterval(
        () => void fireSchedules().catch((err) => console.error('[scheduler]', (err as Error).message)),
        options.scheduleEveryMs,
      )
    : undefined;
  const sweeper = options.sweepUploadsEveryMs
    ? setInterval(
        () => void sweepUploads().catch((err) => console.error('[uploads]', (err as Error).message)),
        options.sweepUploadsEveryMs,
      )
    : undefined;
  /**
   * Whether the stream holds nothing more to relay. DynamoDB Local shows a commit's stream record a
   * moment after the write answers, later on a loaded machine: a second look after a pause.
   */
  const settled = async () => {
    if (((await relay?.pump()) ?? 0) > 0) return false;
    await new Promise((r) => setTimeout(r, STREAM_SETTLE_MS));
    return ((await relay?.pump()) ?? 0) === 0;
  };
  return {
    url: http.url,
    apiUrl: `${http.url}/api/v1`,
    port: http.port,
    smtp: { host: smtp.host, port: smtp.port },
    // Relay and consume until both are idle: a consumer's own side effects go through the outbox too.
    // Almost two minutes (inside the tests' hang guard): on a machine running the whole test suite at once,
    // a burst of work has taken past one.
    drain: async (timeoutMs = 110_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const moved = (await relay?.pump()) ?? 0;
        await pollers.drain(Math.max(1, deadline - Date.now()));
        if (moved === 0 && (await settled()) && !relay?.pending()) return;
        if (Date.now() > deadline) throw new Error('The outbox and the queues did not drain in time');
      }
    },
    relayed: async () => {
      if ((await relay?.pump()) === 0) await settled();
    },
    fireSchedules,
    sweepUploads,
    async stop() {
      if (timer) clearInterval(timer);
      if (sweeper) clearInterval(sweeper);
      await http.close();
      await smtp.close();
      await sesSendEvents?.stop();
      await pollers.stop();
      await relay?.stop();
    },
  };
}
