import { fromPromise } from 'xstate';
import { checkoutMachine } from '../../../../machines/checkout/checkout.machine';
import type { CheckoutContext, CheckoutData, CouponCheck, LoadCheckoutInput, ValidateCouponInput } from '../../../../machines/checkout/checkout.types';
import { tempCheckout, validateCoupon } from '../../services/checkout.service';
import { sendEmailByPage } from '../../services/quote.service';
import { fetchLeadWithPlan, fetchWhatsappTemplate } from '../../services/review.service';
import { localStore } from '../../storage/local-store';
import { storeTripFinished } from '../../storage/finished-trip';

/** The lead with its chosen plan and totals, and the agent's WhatsApp text for this page. */
async function loadCheckout({ uuid, sessionId, lang, link }: LoadCheckoutInput): Promise<CheckoutData> {
  const [details, whatsappTemplate] = await Promise.all([
    fetchLeadWithPlan(uuid, sessionId, lang),
    link ? fetchWhatsappTemplate(uuid, link, lang) : Promise.resolve(''),
  ]);
  return { details, whatsappTemplate };
}

/**
 * coupon/validate, and in agent mode the WhatsApp text for the page's link with that coupon
 * (issue 17): what the agent shares opens the customer's checkout with the same total.
 */
async function checkCoupon(input: ValidateCouponInput): Promise<CouponCheck> {
  const coupon = await validateCoupon(input);
  if (!input.link) return coupon;
  return { ...coupon, whatsappTemplate: await fetchWhatsappTemplate(input.uuid, input.link, input.lang) };
}

/**
 * The payments page's address with the source parameters the lead was saved with (spec §4): the
 * language and the campaign's utm tags, so the broker's reports follow the customer there.
 */
export function paymentAddress(url: string, context: Pick<CheckoutContext, 'lang' | 'lead'>): string {
  const target = new URL(url, globalThis.location?.origin ?? 'http://localhost');
  target.searchParams.set('lang', context.lang);
  const lead = context.lead;
  for (const key of ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content'] as const) {
    const value = lead?.[key];
    if (value) target.searchParams.set(key, value);
  }
  return `${target.pathname}${target.search}`;
}

/** The checkout machine with its calls, storage writes and the way out to the payments page. */
export const checkoutLogic = checkoutMachine.provide({
  actors: {
    loadCheckout: fromPromise(({ input }) => loadCheckout(input)),
    validateCoupon: fromPromise(({ input }) => checkCoupon(input)),
    tempCheckout: fromPromise(({ input }) => tempCheckout(input)),
    sendEmail: fromPromise(({ input }) => sendEmailByPage(input)),
  },
  actions: {
    // Spec §3 `coupon`: kept after a successful apply, gone after a failure or Remove.
    storeCoupon: (_, { code }) => localStore.set('coupon', code),
    removeStoredCoupon: () => localStore.remove('coupon'),
    // Spec §4: a fully discounted order stores the thank-you flag; its coupon is spent.
    storeThankYou: ({ context }) => {
      if (context.uuid) storeTripFinished(context.uuid);
      localStore.remove('coupon');
    },
    leaveForPayment: ({ context }, { url }) => window.location.assign(paymentAddress(url, context)),
  },
});
