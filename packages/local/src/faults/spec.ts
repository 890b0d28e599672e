/**
 * The fault spec of `npm start -- --faults <spec>` (README, Faults): services separated by `;`, each
 * `<service>:<fault>=<value>,...`. Rates are percentages (`5%`) or fractions (`0.05`).
 *
 *   dynamodb:throttle=5%,5xx=1%,latency=40ms@20%,reset=1%,lost=1%,timeout=0.5%,kill=TransactWriteItems@1%
 *
 * - throttle: the service's own throttling answer (DynamoDB ProvisionedThroughputExceededException,
 *   SQS ThrottlingException, S3 503 SlowDown, SES 429 TooManyRequestsException; SMTP 421)
 * - 5xx: the service's 500 InternalError/InternalServerError (SMTP: 451 at the end of the message)
 * - latency: added before forwarding, `<ms>ms` on every request or `<ms>ms@<rate>` on some
 * - reset: the connection is dropped before the request reaches the service
 * - lost: the request reaches the service, the answer is dropped (the caller cannot know it worked)
 * - timeout: the request is held without an answer until the caller gives up
 * - kill: `<Operation>@<rate>`: once the service has answered that operation, the whole local stack
 *   dies (SIGKILL) before the answer is passed on: a crash between a commit and what follows it.
 */
export const FAULT_SERVICES = ['dynamodb', 'sqs', 's3', 'ses', 'smtp'] as const;
export type FaultService = (typeof FAULT_SERVICES)[number];

export interface ServiceFaults {
  throttle: number;
  error5xx: number;
  reset: number;
  lost: number;
  timeout: number;
  latency?: { ms: number; rate: number };
  kill: { operation: string; rate: number }[];
}

export type FaultSpec = Partial<Record<FaultService, ServiceFaults>>;

export class FaultSpecError extends Error {}

const MAX_SPEC = 2_000;

function rate(text: string, where: string): number {
  const percent = text.endsWith('%');
  const value = Number(percent ? text.slice(0, -1) : text);
  const fraction = percent ? value / 100 : value;
  if (text === '' || !Number.isFinite(fraction) || fraction < 0 || fraction > 1)
    throw new FaultSpecError(`${where}: "${text}" is not a rate (5% or 0.05)`);
  return fraction;
}

function duration(text: string, where: string): number {
  const ms = text.endsWith('ms')
    ? Number(text.slice(0, -2))
    : text.endsWith('s')
      ? Number(text.slice(0, -1)) * 1000
      : NaN;
  if (!Number.isFinite(ms) || ms < 0 || ms > 120_000)
    throw new FaultSpecError(`${where}: "${text}" is not a duration (250ms or 2s)`);
  return ms;
}

/** Parses a spec; throws FaultSpecError naming the part it cannot read. */
export function parseFaultSpec(spec: string): FaultSpec {
  if (spec.length > MAX_SPEC) throw new FaultSpecError(`the spec is over ${MAX_SPEC} characters`);
  const out: FaultSpec = {};
  for (const part of spec
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const colon = part.indexOf(':');
    const service = part.slice(0, colon).trim() as FaultService;
    if (colon < 0 || !FAULT_SERVICES.includes(service))
      throw new FaultSpecError(`"${part}": start with one of ${FAULT_SERVICES.join(', ')} and a colon`);
    const faults: ServiceFaults = out[service] ?? { throttle: 0, error5xx: 0, reset: 0, lost: 0, timeout: 0, kill: [] };
    for (const entry of part
      .slice(colon + 1)
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const eq = entry.indexOf('=');
      const name = entry.slice(0, eq);
      const value = entry.slice(eq + 1);
      const where = `${service}:${name}`;
      if (eq < 0) throw new FaultSpecError(`${service}: "${entry}" needs a value (name=value)`);
      if (name === 'throttle') faults.throttle = rate(value, where);
      else if (name === '5xx') faults.error5xx = rate(value, where);
      else if (name === 'reset') faults.reset = rate(value, where);
      else if (name === 'lost') faults.lost = rate(value, where);
      else if (name === 'timeout') faults.timeout = rate(value, where);
      else if (name === 'latency') {
        const [ms = '', at] = value.split('@');
        faults.latency = { ms: duration(ms, where), rate: at === undefined ? 1 : rate(at, where) };
      } else if (name === 'kill') {
        const [operation = '', at = ''] = value.split('@');
        if (!/^[A-Za-z]{1,64}$/.test(operation))
          throw new FaultSpecError(`${where}: "${operation}" is not an operation name`);
        faults.kill.push({ operation, rate: rate(at, where) });
      } else throw new FaultSpecError(`${where}: unknown fault (throttle, 5xx, latency, reset, lost, timeout, kill)`);
    }
    if (faults.throttle + faults.error5xx + faults.reset + faults.lost + faults.timeout > 1)
      throw new FaultSpecError(`${service}: the rates add up to more than 100%`);
    out[service] = faults;
  }
  return out;
}

/** What happens to one request: at most one of the exclusive faults, drawn once. */
export type Verdict = 'pass' | 'throttle' | 'error5xx' | 'reset' | 'lost' | 'timeout';

export function draw(faults: ServiceFaults, random = Math.random): Verdict {
  let roll = random();
  for (const verdict of ['throttle', 'error5xx', 'reset', 'lost', 'timeout'] as const) {
    if (roll < faults[verdict]) return verdict;
    roll -= faults[verdict];
  }
  return 'pass';
}
