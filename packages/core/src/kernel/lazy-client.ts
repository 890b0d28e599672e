/**
 * An AWS SDK client whose module loads on first use, not at cold start: a route that never sends to
 * SQS, S3, SES, Scheduler or Bedrock never pays for that client's code (see docs/benchmarks.md).
 */
export function lazyClient<M, C>(load: () => Promise<M>, make: (sdk: M) => C): () => Promise<{ sdk: M; client: C }> {
  let loaded: Promise<{ sdk: M; client: C }> | undefined;
  return () => (loaded ??= load().then((sdk) => ({ sdk, client: make(sdk) })));
}
