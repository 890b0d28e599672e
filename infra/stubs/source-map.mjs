/**
 * Replaces `source-map` in Lambda bundles (BUNDLE_ALIASES in infra/constructs/bundle.ts). Handlebars'
 * compiler require()s it only to attach source maps to compiled templates (its `srcName` option), which
 * the service never asks for. Without it Handlebars uses its own string builder (its code for
 * environments that lack the library) and compiles the same template code, and the first template
 * render loads 26 KB less.
 */
export {};
