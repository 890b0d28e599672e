import type Handlebars from 'handlebars';

/**
 * What one render may do. Import checks catch a partial that includes itself, but not a fan-out: a
 * few small partials that each call the next ten times, or loops over a list inside loops over it,
 * render millions of pieces from a few hundred bytes of source and variables (a preview of five such
 * partials took 16 s and answered 17 MB, and held up every other request of its server meanwhile).
 * Every partial call and loop iteration is counted with the text it produced (an outer piece's text
 * counts again at each level, which only tightens the bound), and the render stops past a limit.
 * Legitimate mail is far below them: Gmail clips a message at 102 KB.
 */
export const RENDER_LIMITS = {
  /** Partial calls and `each` iterations of one render. */
  pieces: 200_000,
  /** Characters those pieces produced in all. */
  producedChars: 20_000_000,
  /** Characters of the rendered part itself (the API answers it in a preview, under Lambda's 6 MB). */
  outputChars: 2_000_000,
} as const;

/** The render went past `RENDER_LIMITS`; renderStep answers it as the sender's 422. */
export class RenderTooLarge extends Error {
  constructor() {
    super('The render went past its limits');
    this.name = 'RenderTooLarge';
  }
}

// Renders are synchronous, so one render's count is never shared with another's.
let spent: { pieces: number; chars: number } | undefined;

function count(produced: unknown) {
  if (!spent) return;
  spent.pieces += 1;
  spent.chars += typeof produced === 'string' ? produced.length : 0;
  if (spent.pieces > RENDER_LIMITS.pieces || spent.chars > RENDER_LIMITS.producedChars) throw new RenderTooLarge();
}

/** Runs one render under the limits. */
export function withinLimits(render: () => string): string {
  spent = { pieces: 0, chars: 0 };
  try {
    const output = render();
    if (output.length > RENDER_LIMITS.outputChars) throw new RenderTooLarge();
    return output;
  } finally {
    spent = undefined;
  }
}

type Helper = (this: unknown, context: unknown, options: Handlebars.HelperOptions) => string;
type InvokePartial = (this: unknown, partial: unknown, context: unknown, options: unknown) => unknown;

/**
 * Counts every partial call (stored and inline ones go through `VM.invokePartial`, which Handlebars
 * keeps overridable per environment for this) and every `each` iteration of the environment's renders.
 */
export function countPieces(env: typeof Handlebars) {
  const each = env.helpers.each as Helper;
  env.registerHelper('each', function (this: unknown, context: unknown, options: Handlebars.HelperOptions) {
    const fn = options.fn;
    const counted = (item: unknown, frame?: Handlebars.RuntimeOptions) => {
      const produced = fn(item, frame);
      count(produced);
      return produced;
    };
    return each.call(this, context, { ...options, fn: counted as typeof fn });
  });
  const vm = (env as unknown as { VM: { invokePartial: InvokePartial } }).VM;
  const invokePartial = vm.invokePartial;
  (env as unknown as { VM: object }).VM = {
    ...vm,
    invokePartial(this: unknown, partial: unknown, context: unknown, options: unknown) {
      const produced = invokePartial.call(this, partial, context, options);
      count(produced);
      return produced;
    },
  };
}
