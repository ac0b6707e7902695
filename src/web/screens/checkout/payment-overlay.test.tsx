import { useRef } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkoutMachine } from '../../../../machines/checkout/checkout.machine';
import { CHECKOUT_FAILURES, PAYABLE_RESULT, checkoutData, checkoutInput } from '../../../../machines/checkout/checkout.model';
import { CHECKOUT_LOADER_MS, type TempCheckoutResult } from '../../../../machines/checkout/checkout.types';
import { activateLanguage } from '../../i18n/locale';
import type { checkoutLogic } from './checkout.actors';
import { PaymentOverlay } from './payment-overlay';

/**
 * Issue 17 item 13 (spec §4, §9): the checkout loader covers the page while temp-checkout runs
 * and for 2.5 s after it, is announced to screen readers, and keeps keyboard focus safe. The
 * checkout machine runs for real; temp-checkout, the edge, answers when the test says.
 */

const MESSAGE = 'Please wait while we prepare your secure payment…';

beforeAll(() => activateLanguage('en'));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Page({ step }: { step: ActorRefFrom<typeof checkoutLogic> }) {
  const proceed = useRef<HTMLButtonElement>(null);
  return (
    <I18nProvider i18n={i18n}>
      <MantineProvider env="test">
        <button ref={proceed} type="button" onClick={() => step.send({ type: 'checkout.pay' })}>
          Proceed to payment
        </button>
        <PaymentOverlay step={step} returnFocusTo={proceed} />
      </MantineProvider>
    </I18nProvider>
  );
}

/** Checkout loaded and ready, with temp-checkout settled by the returned functions. */
async function readyCheckout() {
  vi.useFakeTimers();
  const answer: { resolve?: (result: TempCheckoutResult) => void; reject?: (error: unknown) => void } = {};
  const left: string[] = [];
  const machine = checkoutMachine.provide({
    actors: {
      loadCheckout: fromPromise(async () => checkoutData()),
      tempCheckout: fromPromise(
        () =>
          new Promise<TempCheckoutResult>((resolve, reject) => {
            answer.resolve = resolve;
            answer.reject = reject;
          }),
      ),
    },
    actions: { leaveForPayment: (_, { url }) => left.push(url) },
  });
  const step = createActor(machine, { input: checkoutInput() }).start() as unknown as ActorRefFrom<typeof checkoutLogic>;
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
  expect(step.getSnapshot().matches('ready')).toBe(true);
  render(<Page step={step} />);
  return { step, answer, left };
}

const overlay = () => screen.queryByTestId('checkout-paying-overlay');
const status = () => screen.getByTestId('checkout-paying-status');

describe('the checkout loader', () => {
  it('covers the page during the payment call and for 2.5 s after it, then hides', async () => {
    const { answer, left } = await readyCheckout();
    expect(overlay()).toBeNull();
    expect(status().textContent).toBe('');

    fireEvent.click(screen.getByRole('button', { name: 'Proceed to payment' }));
    expect(overlay()).not.toBeNull();
    expect(status().getAttribute('role')).toBe('status');
    expect(status().textContent).toBe(MESSAGE);

    await act(async () => {
      answer.resolve!(PAYABLE_RESULT);
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(left).toEqual([PAYABLE_RESULT.payment_url]);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CHECKOUT_LOADER_MS - 1);
    });
    expect(overlay()).not.toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(CHECKOUT_LOADER_MS).toBe(2500);
    expect(overlay()).toBeNull();
    expect(status().textContent).toBe('');
  });

  it('holds keyboard focus while shown, and gives it back to Proceed when it hides', async () => {
    const { answer } = await readyCheckout();
    const proceed = screen.getByRole('button', { name: 'Proceed to payment' });
    proceed.focus();
    fireEvent.click(proceed);
    const panel = document.activeElement as HTMLElement;
    expect(overlay()!.contains(panel)).toBe(true);
    // Tab does not leave the loader for the controls under it.
    expect(fireEvent.keyDown(panel, { key: 'Tab' })).toBe(false);

    // A refused payment: the loader hides at once (the error dialog tells why) and focus is back on Proceed.
    await act(async () => {
      answer.reject!(CHECKOUT_FAILURES.server);
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(overlay()).toBeNull();
    expect(document.activeElement).toBe(proceed);
  });
});
