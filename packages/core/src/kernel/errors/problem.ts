import { PROBLEMS, type ProblemArgs, type ProblemCode, type ProblemSpec } from './catalog.js';

/**
 * A failure the API answers with: a catalog code, its status and the spec's
 * `{ error: { code, message, details? } }`. Made by `problem()`; the pipeline's error responder turns
 * it into the HTTP answer.
 */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'Problem';
  }

  toBody() {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

/** A code whose message needs nothing takes no argument; one that may take some takes them optionally. */
type ArgList<A> = [A] extends [void] ? [] : void extends A ? [args?: Exclude<A, void>] : [args: A];

/** The catalog's problem `code` with its message and details, ready to throw. */
export function problem<C extends ProblemCode>(code: C, ...args: ArgList<ProblemArgs<C>>): Problem {
  const spec = PROBLEMS[code] as ProblemSpec<unknown>;
  const arg = args[0];
  const details = spec.toDetails ? spec.toDetails(arg) : spec.details ? arg : undefined;
  return new Problem(
    spec.status,
    code,
    spec.message(arg),
    details as Record<string, unknown> | undefined,
    spec.headers?.(arg),
  );
}
