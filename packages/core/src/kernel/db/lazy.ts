/**
 * A value built on first use: ElectroDB entities and services are `lazy(() => new Entity(…, entityConfig()))`.
 * Building an entity parses and checks its model; with every entity of the core built at import, a
 * Lambda paid for ~50 models at cold start while a route uses a handful. Built on first use, they also
 * read the table name and client when the code runs, not when the module loads, so no caller has to
 * set `process.env` before importing (docs/architecture.md, Configuration).
 *
 * The proxy forwards every operation to the built value (methods bound to it), so ElectroDB's own
 * checks (a Service's `instanceof Entity`) and its types see the real thing.
 */
export function lazy<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = () => (built ??= build());
  return new Proxy({} as T, {
    get(_, key) {
      const target = real();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    // The proxy's own (empty) target never holds the property, so it may not be reported as fixed.
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
