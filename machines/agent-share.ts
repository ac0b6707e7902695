import type { Language } from '../src/contract/endpoint';
import type { SHARE_PAGES } from '../src/contract/quote.endpoints';

/**
 * Agent mode's e-mail share (RULINGS 15), the same on every page that has it (quotes, compare
 * table, review, checkout): one region for the step machines, and how long the "sent" toast
 * stays (spec §9: 5 seconds).
 */
export const EMAIL_TOAST_MS = 5000;

type SharePage = (typeof SHARE_PAGES)[number];

/** What the share region reads from its step's context. */
export interface ShareContext {
  uuid: string | null;
  lang: Language;
  agentId: number | null;
  link: string | null;
}

/**
 * The `share` region of a step machine: idle → sending (send-email-by-page) → sent, where the
 * toast stays EMAIL_TOAST_MS; `link` is the address sent (checkout adds its applied coupon). The
 * step's setup names the pieces it uses: the `sendEmail` actor,
 * the `canShare` guard and the `markEmailSent` / `clearEmailSent` actions. A failed share is
 * not reported (spec §8): the button simply stops loading.
 */
export function agentShareRegion<C extends ShareContext, P extends SharePage>(pagename: (context: C) => P, link: (context: C) => string = (context) => context.link!) {
  return {
    description: 'Agent mode (RULINGS 15): e-mail the page link to the customer; a toast confirms for 5 s.',
    initial: 'idle',
    states: {
      idle: { on: { 'share.email': { guard: 'canShare', target: 'sending' } } },
      sending: {
        invoke: {
          id: 'sendEmail',
          src: 'sendEmail',
          input: ({ context }: { context: C }) => ({
            uuid: context.uuid!,
            lang: context.lang,
            agentId: context.agentId!,
            link: link(context),
            pagename: pagename(context),
          }),
          onDone: { target: 'sent', actions: 'markEmailSent' },
          onError: { target: 'idle' },
        },
      },
      sent: {
        after: { [EMAIL_TOAST_MS]: { target: 'idle', actions: 'clearEmailSent' } },
        on: { 'share.email': { guard: 'canShare', target: 'sending', actions: 'clearEmailSent' } },
      },
    },
  } as const;
}
