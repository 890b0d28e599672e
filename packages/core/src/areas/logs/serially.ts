const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after the earlier tasks of the same key in this process. Writers of one DynamoDB item
 * (a project's templates, a hot issue) then take turns instead of failing each other's version
 * conditions and backing off; other processes are still kept apart by those conditions.
 */
export function serially<T>(key: string, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(task, task);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => queues.get(key) === tail && queues.delete(key));
  return run;
}
