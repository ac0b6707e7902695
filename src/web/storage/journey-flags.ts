import { localStore } from './local-store';

/**
 * Reads of the spec §3 stored keys that the later steps start from. Kept here, apart from any
 * step, so a page's chunk does not pull in another step's machine for one read.
 */

/**
 * Whether a thank-you flag is stored for this lead (spec §2, §4: a finished journey sends the user
 * to travel details). The flag names its lead (issue 37): on a device that finished one journey,
 * a link to another lead, or to one that does not exist, opens as it would anywhere else.
 */
export const thankYouStored = (uuid: string | null): boolean =>
  uuid !== null && localStore.get('thankyou') !== null && localStore.get('thankyou_lead')?.toLowerCase() === uuid.toLowerCase();

/** Stores the thank-you flag for `uuid` (a paid order, a lead kept for a manual quote). */
export function storeThankYou(uuid: string): void {
  localStore.set('thankyou', '1');
  localStore.set('thankyou_lead', uuid);
}

export function clearThankYou(): void {
  localStore.remove('thankyou');
  localStore.remove('thankyou_lead');
}

/** The stored traveller index (spec §3 traveller_index), or 0 when there is none or it is not a number. */
export function storedTravellerIndex(): number {
  const index = Number(localStore.get('traveller_index'));
  return Number.isInteger(index) && index >= 0 ? index : 0;
}

/** The coupon stored by an earlier successful apply (spec §3 coupon), or null. */
export const storedCoupon = (): string | null => localStore.get('coupon') || null;
