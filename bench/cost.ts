/**
 * The money side of the bench: public prices in one place, and the model that turns what a call was
 * measured to use (DynamoDB units, CPU time, AWS requests) into dollars and into a Lambda duration at
 * a given memory size.
 */

/**
 * us-east-1 public on-demand prices, read 2026-11-23 from the AWS pricing pages below (DynamoDB's as
 * cut on 1 Nov 2024). Free tiers are left out: the table is about marginal cost.
 */
export const PRICES = {
  asOf: '2026-11-23',
  /** https://aws.amazon.com/api-gateway/pricing/ — HTTP API, first 300 million a month. */
  httpApiPerMillion: 1.0,
  /** https://aws.amazon.com/lambda/pricing/ — arm64, first 7.5 billion GB-s a month. */
  lambdaArmPerGbSecond: 0.0000133334,
  lambdaPerMillionInvocations: 0.2,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — after the November 2024 price cut. */
  dynamoWritePerMillionUnits: 0.625,
  dynamoReadPerMillionUnits: 0.125,
  /** https://aws.amazon.com/sqs/pricing/ — standard queues, per 64 KB request. */
  sqsPerMillionRequests: 0.4,
  /** https://aws.amazon.com/ses/pricing/ — outbound email. */
  sesPerThousandEmails: 0.1,
} as const;

/** Lambda gives a function one full vCPU at 1,769 MB and CPU in proportion to memory below that. */
export const FULL_VCPU_MB = 1769;
/** The sizes the duration curve is drawn at. */
export const MEMORY_SIZES = [128, 256, 512, 1024, FULL_VCPU_MB] as const;
/**
 * Assumed wait per AWS request from a Lambda in the same region (DynamoDB single-item p50 is a few
 * ms): DynamoDB Local's own latency on this machine is not what a Lambda would wait.
 */
export const AWS_REQUEST_MS = 4;

/**
 * Assumed wait for a webhook endpoint's answer: a receiver that acknowledges at once and does its work
 * later, as Stripe and Svix ask of endpoints, still answers over the internet in about this long. The
 * bench's local receiver answers immediately, so the webhooks consumer's duration curve adds it per
 * delivery (memory does not shorten it).
 */
export const WEBHOOK_TARGET_MS = 100;

export interface Usage {
  /** CPU time of the call on this machine (an upper bound: it includes the local server and client). */
  cpuMs: number;
  /** AWS requests the call waits on (DynamoDB, SQS, ...). */
  awsRequests: number;
  /** Other waits of the call outside AWS (a webhook endpoint's answer), in ms. */
  waitMs?: number;
  readUnits: number;
  writeUnits: number;
}

/**
 * The call's duration at `mb` MB: its CPU time stretched by Lambda's CPU share (this machine's core
 * counted as one Graviton vCPU) plus the waits on AWS and outside it, which memory does not change.
 */
export const durationAt = (u: Pick<Usage, 'cpuMs' | 'awsRequests' | 'waitMs'>, mb: number) =>
  u.cpuMs * Math.max(1, FULL_VCPU_MB / mb) + u.awsRequests * AWS_REQUEST_MS + (u.waitMs ?? 0);

/** Dollars of one invocation of `ms` at `mb` MB on arm64 (billed per ms). */
export const lambdaDollars = (ms: number, mb: number) =>
  (Math.ceil(ms) / 1000) * (mb / 1024) * PRICES.lambdaArmPerGbSecond + PRICES.lambdaPerMillionInvocations / 1e6;

export const dynamoDollars = (u: Pick<Usage, 'readUnits' | 'writeUnits'>) =>
  (u.readUnits * PRICES.dynamoReadPerMillionUnits + u.writeUnits * PRICES.dynamoWritePerMillionUnits) / 1e6;

/** One API call end to end: API Gateway, the Lambda at `mb`, its DynamoDB units. */
export function apiCallDollars(u: Usage, mb: number) {
  const api = PRICES.httpApiPerMillion / 1e6;
  const lambda = lambdaDollars(durationAt(u, mb), mb);
  const dynamo = dynamoDollars(u);
  return { api, lambda, dynamo, total: api + lambda + dynamo };
}

/** The least any keyed read can cost: API Gateway and one eventually consistent read (0.5 RRU), nothing else. */
export const floorDollars = () => PRICES.httpApiPerMillion / 1e6 + dynamoDollars({ readUnits: 0.5, writeUnits: 0 });

/**
 * The memory size AWS Lambda Power Tuning's "balanced" strategy picks over a function's measured calls
 * (each weighted alike): the smallest half-and-half sum of cost and duration, each as a share of its
 * largest value on the curve. Pure cost would always pick 128 MB (CPU-bound work costs about the same
 * at any size, only slower); pure speed always 1,769 MB.
 */
export function chooseMemory(calls: Pick<Usage, 'cpuMs' | 'awsRequests' | 'waitMs'>[]) {
  const points = MEMORY_SIZES.map((mb) => {
    const ms = calls.reduce((n, c) => n + durationAt(c, mb), 0) / Math.max(1, calls.length);
    return { mb, ms, dollars: lambdaDollars(ms, mb) };
  });
  const maxMs = Math.max(...points.map((p) => p.ms));
  const maxDollars = Math.max(...points.map((p) => p.dollars));
  const curve = points.map((p) => ({ ...p, score: 0.5 * (p.dollars / maxDollars) + 0.5 * (p.ms / maxMs) }));
  const best = curve.reduce((a, b) => (b.score < a.score ? b : a));
  /** A deployed size is as good as the best when its score is within measurement noise (2%). */
  const fits = (mb: number) => (curve.find((c) => c.mb === mb)?.score ?? Infinity) <= best.score * 1.02;
  return { best: best.mb, curve, fits };
}

/** The least a write can cost: API Gateway and one write unit, nothing else. */
export const writeFloorDollars = () => PRICES.httpApiPerMillion / 1e6 + dynamoDollars({ readUnits: 0, writeUnits: 1 });

/**
 * Issue 36's write-unit targets for the ticket writes that happen most; every other write is held to
 * three times the units of the items it writes (the index copies at most twice the items themselves).
 */
export const WRITE_UNIT_TARGETS: Record<string, number> = {
  'PATCH /tickets/{ticketId}': 8,
  'POST /tickets/{ticketId}/messages': 10,
  'POST /tickets/{ticketId}/messages (public reply)': 12,
  'POST /tickets': 10,
  'POST /tickets (new customer)': 10,
};

export const perMillion = (dollars: number) => `$${(dollars * 1e6).toFixed(2)}`;
