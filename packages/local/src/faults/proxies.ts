import type { Endpoints } from '../emulators.js';
import { type FaultCounts, startFaultProxy } from './http-proxy.js';
import type { FaultSpec } from './spec.js';
import { startSmtpFaultProxy } from './tcp-proxy.js';

/**
 * The proxies a spec asks for, in front of the stand-ins it names; the endpoints the stack then uses
 * (the others unchanged). The SMTP proxy starts once the SMTP stand-in is listening.
 */
export async function startFaultProxies(direct: Endpoints, spec: FaultSpec, onKill: () => void) {
  const endpoints = { ...direct };
  const closers: (() => Promise<void>)[] = [];
  const arms: (() => void)[] = [];
  const counts: Record<string, FaultCounts> = {};
  for (const service of ['dynamodb', 'sqs', 's3', 'ses'] as const) {
    const faults = spec[service];
    if (!faults) continue;
    const proxy = await startFaultProxy(service, direct[service], faults, onKill);
    endpoints[service] = proxy.url;
    counts[service] = proxy.counts;
    closers.push(proxy.close);
    arms.push(proxy.arm);
  }
  return {
    endpoints,
    /** Where senders reach the SMTP stand-in: its proxy when the spec names smtp. */
    async smtp(server: { host: string; port: number }) {
      if (!spec.smtp) return { smtpHost: server.host, smtpPort: server.port };
      const proxy = await startSmtpFaultProxy(server.host, server.port, spec.smtp);
      counts.smtp = proxy.counts;
      closers.push(proxy.close);
      return { smtpHost: proxy.host, smtpPort: proxy.port };
    },
    /** Starts injecting (the SMTP proxy injects from its start, which comes after the stack's setup). */
    arm: () => {
      for (const arm of arms) arm();
    },
    counts: () => counts,
    close: async () => {
      await Promise.allSettled(closers.map((close) => close()));
    },
  };
}
