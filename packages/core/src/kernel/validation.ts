import * as v from 'valibot';

/**
 * Every valibot pipeline stops at its first failing action: a length limit then guards the parsing and
 * pattern checks after it (a 2 MB `to` would otherwise still reach the address parser). Set once for
 * the process, before any request or message is validated (config.ts imports this module, and every
 * handler factory reads the configuration first).
 */
v.setGlobalConfig({ abortPipeEarly: true });
