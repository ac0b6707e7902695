import type { TravelDetails } from '../../contract/travel-details.rules';

/**
 * "Buy again" (issue 37 item 2): the policy page hands travel details the policy's trip and
 * travellers, and its token, which the new lead names (from_policy) so the server carries the
 * passports on to the review. Kept here, not in the journey machine: machines carry no data.
 * Read by the travel details step that opens next (React may read it twice in development), and
 * cleared once that step saved a lead or another way into travel details was taken.
 */
export interface BuyAgain {
  policyToken: string;
  details: TravelDetails;
}

let pending: BuyAgain | null = null;

export function handOverBuyAgain(buyAgain: BuyAgain): void {
  pending = buyAgain;
}

export function pendingBuyAgain(): BuyAgain | null {
  return pending;
}

export function clearBuyAgain(): void {
  pending = null;
}
