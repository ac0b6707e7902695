import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECKOUT_FAILURES, CHECKOUT_LEAD_UUID, CHECKOUT_SESSION_UUID, EXPIRED_MESSAGE, PLAN_TOTALS, SAVE10, checkoutData } from '../../../../machines/checkout/checkout.model';
import { renderApp } from '../../../../tests/support/render-app';
import { activateLanguage } from '../../i18n/locale';
import * as checkoutService from '../../services/checkout.service';
import { configureHttpClient } from '../../services/http-client';
import * as reviewService from '../../services/review.service';

/**
 * Issue 17: the customer opens the agent's checkout link (`coupon=SAVE10`); the coupon is applied
 * through coupon/validate as if typed, the box filled and "Coupon applied" shown, so the customer
 * sees the total the agent saw; an unusable coupon shows its error as usual. The lead read and
 * coupon/validate are stubs at the service edge.
 */

vi.mock('../../services/review.service', () => ({ fetchLeadWithPlan: vi.fn(), fetchWhatsappTemplate: vi.fn() }));
vi.mock('../../services/checkout.service', () => ({ validateCoupon: vi.fn(), tempCheckout: vi.fn() }));
const review = vi.mocked(reviewService);
const checkout = vi.mocked(checkoutService);

const pendingFetch: typeof fetch = () => new Promise(() => {});

beforeAll(async () => {
  await activateLanguage('en');
  configureHttpClient({ baseUrl: 'http://checkout-link.test', signingKey: 'test', fetch: pendingFetch });
});
beforeEach(() => {
  vi.resetAllMocks();
  review.fetchLeadWithPlan.mockResolvedValue(checkoutData().details);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

function open(query: string) {
  renderApp(`/checkout?uuid=${CHECKOUT_LEAD_UUID}&lang=en${query}`, { path: '/checkout', uuid: CHECKOUT_LEAD_UUID, sessionId: CHECKOUT_SESSION_UUID, agentId: null });
}

describe("checkout opened from an agent's link with a coupon", () => {
  it('applies the coupon as if typed: the box filled, "Coupon applied", the discounted total', async () => {
    checkout.validateCoupon.mockResolvedValue(SAVE10);
    open('&coupon=SAVE10');
    await screen.findByTestId('coupon-applied');
    expect(checkout.validateCoupon).toHaveBeenCalledWith({ uuid: CHECKOUT_LEAD_UUID, code: 'SAVE10', lang: 'en', link: null });
    expect((screen.getByTestId('coupon-input') as HTMLInputElement).value).toBe('SAVE10');
    expect(screen.getByTestId('coupon-applied').textContent).toContain('Coupon applied');
    expect(localStorage.getItem('coupon')).toBe('SAVE10');
    // The total the agent saw with the coupon, to the cent.
    expect(screen.getByTestId('price-total').textContent).toContain((SAVE10.totals.total / 100).toFixed(2));
  });

  it('a link coupon is applied instead of one stored earlier on this device', async () => {
    localStorage.setItem('coupon', 'OTHER5');
    checkout.validateCoupon.mockResolvedValue(SAVE10);
    open('&coupon=SAVE10');
    await screen.findByTestId('coupon-applied');
    expect(checkout.validateCoupon).toHaveBeenCalledTimes(1);
    expect(checkout.validateCoupon.mock.calls[0]![0]).toMatchObject({ code: 'SAVE10' });
  });

  it('an unusable coupon shows its error under the filled box, and the plan total stays', async () => {
    checkout.validateCoupon.mockRejectedValue(CHECKOUT_FAILURES.couponExpired);
    open('&coupon=OLD10');
    // Under the box (the page's live region says it too, issue 21).
    await waitFor(() => expect(within(screen.getByTestId('coupon-box')).getByText(EXPIRED_MESSAGE)).toBeTruthy());
    expect((screen.getByTestId('coupon-input') as HTMLInputElement).value).toBe('OLD10');
    expect(screen.queryByTestId('coupon-applied')).toBeNull();
    expect(screen.getByTestId('price-total').textContent).toContain((PLAN_TOTALS.total / 100).toFixed(2));
  });

  it('without a coupon in the link nothing is checked', async () => {
    open('');
    await waitFor(() => expect(review.fetchLeadWithPlan).toHaveBeenCalled());
    await screen.findByTestId('coupon-input');
    expect(checkout.validateCoupon).not.toHaveBeenCalled();
  });
});
