/**
 * A value built on first use: ElectroDB entities and services are `lazy(() => new Entity(…, entityConfig()))`.
 * Building an entity parses and checks its model; with every entity of the core built at import, a
 * Lambda paid for ~50 models at cold start while a route uses a handful. Built on first use, they also
 * read the table name and client when the code runs, not when the module loads, so no caller has to
 * set `process.env` before importing (docs/architecture.md, Configuration).
 */
export function lazy<T extends object>(build: () => T): T {
  let built: T | undefined;
  return forward(() => (built ??= build()));
}

/**
 * A stand-in that forwards every operation to `current()`, asked anew on each one (methods bound to
 * it), so ElectroDB's own checks (a Service's `instanceof Entity`) and its types see the real thing.
 * `lazy` forwards to one value; the ticket entity to the one its configuration names.
 */
export function forward<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = current();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(current(), key, value),
    has: (_, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getPrototypeOf: () => Reflect.getPrototypeOf(current()),
    // The proxy's own (empty) target never holds the property, so it may not be reported as fixed.
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
