import { localStore } from './local-store';

/**
 * Reads of the spec §3 stored keys that the later steps start from. Kept here, apart from any
 * step, so a page's chunk does not pull in another step's machine for one read.
 */

/** Whether a thank-you flag is stored (spec §2, §4: a finished journey sends the user to travel details). */
export const thankYouStored = (): boolean => localStore.get('thankyou') !== null;

/** The stored traveller index (spec §3 traveller_index), or 0 when there is none or it is not a number. */
export function storedTravellerIndex(): number {
  const index = Number(localStore.get('traveller_index'));
  return Number.isInteger(index) && index >= 0 ? index : 0;
}

/** The coupon stored by an earlier successful apply (spec §3 coupon), or null. */
export const storedCoupon = (): string | null => localStore.get('coupon') || null;
