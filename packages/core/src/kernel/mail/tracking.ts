/**
 * SES turns on open and click tracking per configuration set (an event destination for OPEN or CLICK
 * events), not per message: a stage has four sets, one per combination, named from its base set.
 * The stack creates them (infra/constructs/mail.ts) and a send picks one (kernel/ports/email-sender.ts).
 */
export type Tracking = 'opens' | 'clicks';

/** The configuration set of a send with this tracking: `<base>`, `<base>-opens`, `-clicks`, `-opens-clicks`. */
export const configurationSetFor = (base: string, tracking: readonly Tracking[] = []) =>
  `${base}${tracking.includes('opens') ? '-opens' : ''}${tracking.includes('clicks') ? '-clicks' : ''}`;

/** Every configuration set of a stage, with the tracking it turns on. */
export const trackingVariants = (base: string) =>
  ([[], ['opens'], ['clicks'], ['opens', 'clicks']] as Tracking[][]).map((tracking) => ({
    name: configurationSetFor(base, tracking),
    tracking,
  }));
